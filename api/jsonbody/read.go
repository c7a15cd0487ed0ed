// Package jsonbody reads request bodies: strictly as JSON where a route takes one, and as
// nothing (or {}) where a route takes none.
package jsonbody

import (
	"errors"
	"net"
	"net/http"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
)

// ReadError classifies a failure to read a request's body: too large is 413 (through
// *http.MaxBytesError), a body that did not arrive before the server's read timeout is 408
// REQUEST_TIMEOUT, and one cut short by the client is INVALID_REQUEST. All are the client's
// doing: none is logged as a server error or counted as a 5xx.
func ReadError(err error) error {
	var (
		mbe *http.MaxBytesError
		ne  net.Error
	)
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.As(err, &ne) && ne.Timeout():
		return &problem.Error{Code: problem.CodeRequestTimeout, Detail: "the request body did not arrive before the server's read timeout"}
	}
	return domain.Invalidf("the request body could not be read to its end: the client closed it early")
}
