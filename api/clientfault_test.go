package api_test

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestSlowBodyIsRequestTimeout: a body that does not arrive before the server's read timeout is
// answered 408 REQUEST_TIMEOUT as problem+json, logged at info, and never as a server error.
func TestSlowBodyIsRequestTimeout(t *testing.T) {
	var logs apitest.SyncBuffer
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}))
	srv := httptest.NewUnstartedServer(h.e)
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"players\":")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	r := &reply{status: res.StatusCode, header: res.Header, body: body}
	r.problem(t, http.StatusRequestTimeout, "REQUEST_TIMEOUT")
	if out := logs.String(); strings.Contains(out, `"level":"ERROR"`) || !strings.Contains(out, `"status":408`) {
		t.Fatalf("the client's timeout is logged as a server error, or not at all:\n%s", out)
	}
}

// TestOversizeHeadersAreAProblem: headers beyond the API's limit get 431 HEADER_TOO_LARGE as
// problem+json, not net/http's plain text.
func TestOversizeHeadersAreAProblem(t *testing.T) {
	h := newHarness(t)
	h.do(http.MethodGet, "/api/v1/matches", nil, "X-Big", strings.Repeat("a", api.DefaultHeaderLimit)).
		problem(t, http.StatusRequestHeaderFieldsTooLarge, "HEADER_TOO_LARGE")
	if r := h.do(http.MethodGet, "/api/v1/matches", nil, "X-Small", strings.Repeat("a", 1000)); r.status != http.StatusOK {
		t.Fatalf("a request within the limit: %d %s", r.status, r.body)
	}
}
