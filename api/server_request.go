package api

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// bearer returns the token of an "Authorization: Bearer <token>" header, or "" without one.
// Any other Authorization is refused rather than ignored: a client sending one meant to be
// somebody, and silently treating it as a spectator would hide its mistake.
//
// Two Authorization headers are refused too: which one a proxy and the server would each act
// on is anyone's guess.
func bearer(c echo.Context) (string, error) {
	vals := c.Request().Header.Values(echo.HeaderAuthorization)
	if len(vals) > 1 {
		return "", fmt.Errorf("%w: send one Authorization header", domain.ErrUnauthorized)
	}
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if h == "" {
		return "", nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", fmt.Errorf("%w: send Authorization: Bearer <seat token>", domain.ErrUnauthorized)
	}
	return token, nil
}

// viewer authenticates the caller for match id: a seat with a valid token, else a spectator.
func (s *server) viewer(c echo.Context, id string) (domain.Viewer, error) {
	token, err := bearer(c)
	if err != nil {
		return domain.Viewer{}, err
	}
	return s.svc.Authenticate(c.Request().Context(), id, token)
}

// seatViewer is viewer for the calls only a seat may make.
func (s *server) seatViewer(c echo.Context, id string) (domain.Viewer, error) {
	token, err := bearer(c)
	if err != nil {
		return domain.Viewer{}, err
	}
	if token == "" {
		return domain.Viewer{}, fmt.Errorf("%w: send Authorization: Bearer <seat token>", domain.ErrUnauthorized)
	}
	return s.svc.Authenticate(c.Request().Context(), id, token)
}

// matchCaller starts every call on one match that takes no query parameters, so that each
// refuses a stray parameter (400) before it looks at the token (401), in the same order.
// authenticate is s.viewer, or s.seatViewer for the calls only a seat may make.
func (s *server) matchCaller(c echo.Context, authenticate func(echo.Context, string) (domain.Viewer, error)) (string, domain.Viewer, error) {
	if _, err := query(c); err != nil {
		return "", domain.Viewer{}, err
	}
	id := c.Param("id")
	v, err := authenticate(c, id)
	return id, v, err
}

// query checks that the request's query has only the allowed names, each at most once, so
// that a misspelt filter is an error instead of silently matching everything.
func query(c echo.Context, allowed ...string) (url.Values, error) {
	raw := c.Request().URL.RawQuery
	if raw == "" {
		return nil, nil // nothing to check; a nil url.Values reads as empty, without a map per request
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, domain.Invalidf("malformed query string")
	}
	for name, vals := range q {
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			if len(allowed) == 0 {
				return nil, domain.Invalidf("this endpoint takes no query parameters, got %q", clip(name))
			}
			return nil, domain.Invalidf("unknown query parameter %q; use %s", clip(name), strings.Join(allowed, ", "))
		}
		if len(vals) > 1 {
			return nil, domain.Invalidf("query parameter %q is given more than once", name)
		}
	}
	return q, nil
}

// intParam reads an optional integer query parameter within [lo, hi].
func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	s := q.Get(name)
	if !q.Has(name) {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, domain.Invalidf("%s must be an integer from %d to %d, got %q", name, lo, hi, clip(s))
	}
	return n, nil
}

// etag names one representation of a match: its version and whose view it is ("s" for a
// spectator). The bytes of a view are a function of exactly these two, so the tag is strong.
func etag(version int, v domain.Viewer) string {
	who := "s"
	if seat, ok := v.Seat(); ok {
		who = strconv.Itoa(seat)
	}
	return `"` + strconv.Itoa(version) + "-" + who + `"`
}

// notModified applies If-None-Match (weak comparison, RFC 9110 13.1.2) to the current tag.
func notModified(r *http.Request, tag string) bool {
	h := r.Header.Get("If-None-Match")
	if h == "" {
		return false // most reads send none: no list to split
	}
	if strings.TrimSpace(h) == "*" {
		return true
	}
	for _, t := range strings.Split(h, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == tag {
			return true
		}
	}
	return false
}

// ifMatchVersion reads If-Match as the version a move expects: an ETag from GET ("12-0"), a
// quoted or bare version ("12", 12), or * for any. 0 means no precondition. Anything else is
// refused, a list of tags included: a move expects one version, and reading only the first
// tag of a list, or the digits before some junk, would make it conditional on something
// other than what the client wrote.
func ifMatchVersion(r *http.Request) (int, error) {
	vals := r.Header.Values("If-Match")
	h := ""
	if len(vals) == 1 {
		h = strings.TrimSpace(vals[0])
	}
	if len(vals) == 0 || h == "*" {
		return 0, nil
	}
	if strings.HasPrefix(h, "W/") {
		return 0, domain.Invalidf("If-Match takes a strong ETag or a version, not a weak ETag")
	}
	m := ifMatchForm.FindStringSubmatch(h)
	if m == nil || len(vals) > 1 {
		return 0, domain.Invalidf("If-Match must be one ETag of the match or its version, like \"12-0\" or 12; got %q", clip(h))
	}
	n, err := strconv.Atoi(m[1] + m[2])
	if err != nil || n < 1 {
		return 0, domain.Invalidf("If-Match must name a version from 1 up, got %q", clip(h))
	}
	return n, nil
}

// ifMatchForm is a bare version or a quoted one, with the viewer part of an ETag (etag) and
// the parts a finished match's tag may add: -r once it has a rematch (withNextMatch), -g and
// a hash of its rating changes (withRatingChanges), -v and its review's state (withReview).
// Any tag GET gave is a valid If-Match.
var ifMatchForm = regexp.MustCompile(`^(?:([0-9]{1,9})|"([0-9]{1,9})(?:-(?:s|[0-9])(?:-r)?(?:-g[0-9a-f]{8})?(?:-v[nrdf])?)?")$`)

// idempotencyKey reads Idempotency-Key: 1 to 200 visible ASCII characters.
func idempotencyKey(r *http.Request) (string, error) {
	vals := r.Header.Values("Idempotency-Key")
	if len(vals) == 0 {
		return "", nil
	}
	k := vals[0]
	ok := len(vals) == 1 && k != "" && len(k) <= 200
	for i := 0; ok && i < len(k); i++ {
		ok = k[i] > ' ' && k[i] < 0x7f
	}
	if !ok {
		return "", domain.Invalidf("Idempotency-Key must be one value of 1 to 200 visible ASCII characters")
	}
	return k, nil
}

// clip shortens client input quoted back in an error.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}
