// Package jsonbody reads request bodies: strictly as JSON where a route takes one (its
// integers in the ranges their tags give, bounds.go), as nothing (or {}) where a route takes
// none, and as either where a route's body may be left out.
package jsonbody

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/labstack/echo/v4"

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

// strict are the options of every body read: an unknown member is refused. The other rules
// are go-json-experiment's defaults, and strict relies on them: names are matched exactly
// (case-sensitive), a name given twice in one object is refused, and so are bytes that are not
// UTF-8 and \u escapes of half a surrogate pair. encoding/json matches names ignoring case,
// lets the last of two equal names win and reads bad text as U+FFFD, so {"action":"play",
// "Action":"draw"} would be a draw: a proxy or a log that reads the first name would then see
// another move than the one made, and a name sent so would be kept as something its sender
// never wrote. Refusing such bodies keeps one meaning.
var strict = json.RejectUnknownMembers(true)

// The library reads every body, the moves clients send by the thousand included: a reading of
// its own for plain move bodies saves under 2% of a move's CPU (BenchmarkBodyDecode against
// BenchmarkMove/sync=off), too little to keep a second parser in step with the first.

// Decode reads the body into dst strictly: JSON only, no unknown members, names spelt exactly
// and given once, text that is UTF-8, one value and nothing after it. A typo in a name is an
// error the client hears about, not a default.
func Decode(c echo.Context, dst any) error {
	body, err := Read(c)
	if err != nil {
		return err
	}
	return Strict(body, dst)
}

// Read reads a request body that is to be JSON: refused when its Content-Type is another, or
// when it is empty.
func Read(c echo.Context) ([]byte, error) {
	if err := mediaType(c); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, ReadError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, domain.Invalidf("the request needs a JSON body")
	}
	return body, nil
}

// Optional reads the body of a route whose body may be left out: none, or only white space,
// leaves dst as it is (whatever its Content-Type: there is nothing to read), as a route that
// takes no body is called; any other is read as Decode reads it.
func Optional(c echo.Context, dst any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return ReadError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := mediaType(c); err != nil {
		return err
	}
	return Strict(body, dst)
}

// mediaType refuses a body sent as anything but JSON in UTF-8 (RFC 8259 knows no other
// charset): no Content-Type, application/json or a +json type, with no charset or utf-8.
func mediaType(c echo.Context) error {
	// The exact media type that clients send needs no parsing (which makes a map of parameters).
	ct := c.Request().Header.Get(echo.HeaderContentType)
	if ct == "" || ct == echo.MIMEApplicationJSON {
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || (mt != echo.MIMEApplicationJSON && !strings.HasSuffix(mt, "+json")) {
		return problem.New(problem.CodeUnsupportedMediaType, "send the body as Content-Type: application/json")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return problem.New(problem.CodeUnsupportedMediaType, "send the body in UTF-8: Content-Type: application/json, with no charset or charset=utf-8")
	}
	return nil
}

// Strict is Decode's decoding of a body already read. An integer field out of the range its
// tags give (bounds.go), or a time that is not RFC 3339, says so; a body that is not an object
// (null included, which would leave dst as it was) is refused.
func Strict(body []byte, dst any) error {
	if string(bytes.TrimSpace(body)) == "null" {
		return domain.Invalidf("malformed JSON body: the body must be a JSON object")
	}
	if err := json.Unmarshal(body, dst, strict); err != nil {
		if detail, ok := fieldProblem(body, reflect.TypeOf(dst), err); ok {
			return domain.Invalidf("%s", detail)
		}
		return domain.Invalidf("malformed JSON body: %s", why(body, err))
	}
	return checkBounds(body, reflect.TypeOf(dst))
}

// why words a decoding error for the client, without Go type names.
func why(body []byte, err error) string {
	var (
		se *json.SemanticError
		sy *jsontext.SyntacticError
	)
	switch {
	case errors.As(err, &se) && errors.Is(se.Err, json.ErrUnknownName):
		return fmt.Sprintf("unknown field %q: names are case-sensitive", dotted(se.JSONPointer))
	case errors.As(err, &se) && se.JSONPointer == "":
		return "the body must be a JSON object"
	case errors.As(err, &se) && se.GoType != nil:
		return fmt.Sprintf("field %q must be a JSON %s", dotted(se.JSONPointer), kindOf(se.GoType))
	case errors.As(err, &se):
		return fmt.Sprintf("field %q holds a value it cannot take", dotted(se.JSONPointer))
	case errors.As(err, &sy) && errors.Is(sy.Err, jsontext.ErrDuplicateName):
		return fmt.Sprintf("field %q is given more than once", dotted(sy.JSONPointer))
	case errors.As(err, &sy) && errors.Is(sy.Err, io.ErrUnexpectedEOF):
		return "the JSON ends early"
	case errors.As(err, &sy):
		return syntaxProblem(body, sy)
	}
	return "the body is not one JSON value"
}

// syntaxProblem words a syntax error: bad text, data after the value, or any other.
func syntaxProblem(body []byte, sy *jsontext.SyntacticError) string {
	at := int(min(max(sy.ByteOffset, 0), int64(len(body))))
	rest := body[at:]
	switch {
	case notUTF8(rest):
		return "the body is not UTF-8 text"
	case bytes.HasPrefix(rest, []byte(`\u`)):
		// The decoder stops at the escape it refused: half a surrogate pair.
		if r := hex4(rest[2:]); r >= 0xDC00 && r <= 0xDFFF {
			return "a string holds half a surrogate pair (a \\u escape of U+DC00 to U+DFFF without its first half)"
		}
		return "a string holds half a surrogate pair (a \\u escape of U+D800 to U+DBFF without its second half)"
	case at > 0 && jsontext.Value(bytes.TrimSpace(body[:at])).IsValid():
		return "data after the JSON value"
	}
	return fmt.Sprintf("syntax error at byte %d", at+1)
}

// dotted is a JSON Pointer (/players/0/name) as the field names it in a problem
// (players.0.name).
func dotted(p jsontext.Pointer) string {
	return strings.ReplaceAll(strings.TrimPrefix(string(p), "/"), "/", ".")
}

// kindOf is the JSON kind a Go type takes.
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return t.Kind().String()
}

// notUTF8 says whether b starts with a byte that begins no UTF-8 character: where the decoder
// stops on bytes that are not text.
func notUTF8(b []byte) bool {
	r, size := utf8.DecodeRune(b)
	return len(b) > 0 && r == utf8.RuneError && size == 1
}

// hex4 is the value of the four hex digits b starts with, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(d)
	}
	return r
}

// Bodiless lists the POST routes of e that take no body: every POST route not in bodyRoutes,
// so that a route added later takes none until it is listed there.
func Bodiless(e *echo.Echo, bodyRoutes map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, r := range e.Routes() {
		if r.Method == http.MethodPost && !bodyRoutes[r.Path] {
			out[r.Path] = true
		}
	}
	return out
}

// errBodyGiven refuses a body on a route that takes none.
var errBodyGiven = domain.Invalidf("this request takes no body: send none, or {}")

// None reads the body of a request to a route that takes none (the body limit caps it): none,
// or an empty JSON object with white space around it, is accepted; anything else is 400.
func None(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return ReadError(err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] == '{' && body[len(body)-1] == '}' && len(bytes.TrimSpace(body[1:len(body)-1])) == 0 {
		return nil
	}
	return errBodyGiven
}
