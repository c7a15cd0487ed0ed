package main

import (
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDrainBeforeClose: on SIGTERM, serve with --drain answers /readyz 503 while its listener
// still takes requests, so a load balancer stops sending before any connection is refused;
// then it closes the listener and exits cleanly.
func TestDrainBeforeClose(t *testing.T) {
	in := newInstance(t, "--db "+filepath.Join(t.TempDir(), "drain.db")+" --drain 3s")
	if !in.ready() {
		t.Fatal("not ready before SIGTERM")
	}
	cmd := in.cmd
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	saw503 := false
	waitFor(t, "/readyz to answer 503 while the listener is open", func() bool {
		res, err := quick.Get("http://" + in.addr + "/readyz")
		if err != nil {
			t.Fatalf("the listener closed before /readyz said 503: %v", err)
		}
		res.Body.Close()
		saw503 = res.StatusCode == http.StatusServiceUnavailable
		return saw503
	})
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}
	in.cmd = nil
	if _, err := quick.Get("http://" + in.addr + "/healthz"); err == nil {
		t.Fatal("the listener still answers after serve exited")
	}
}
