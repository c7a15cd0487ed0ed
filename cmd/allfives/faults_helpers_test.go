package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// instance is an `allfives serve` child process on a fixed address, so that it can be killed
// and started again where the balancer expects it.
type instance struct {
	t    *testing.T
	addr string
	args string
	cmd  *exec.Cmd
}

// newInstance starts serve on a free port with args (no spaces inside an argument).
func newInstance(t *testing.T, args string) *instance {
	t.Helper()
	in := &instance{t: t, addr: "127.0.0.1:" + strconv.Itoa(freePort(t)), args: args}
	in.start()
	t.Cleanup(func() { in.kill() })
	return in
}

// start runs the process and returns once it listens.
func (in *instance) start() {
	in.t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ALLFIVES_TEST_RUN=serve --limits off --addr "+in.addr+" "+in.args)
	out, err := cmd.StdoutPipe()
	if err != nil {
		in.t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		in.t.Fatal(err)
	}
	in.cmd = cmd
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		said := false
		for sc.Scan() { // read to the end, so the child never blocks on its log
			var line struct{ Msg string }
			if !said && json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				said = true
				close(listening)
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(2 * time.Minute):
		in.t.Fatal("serve did not listen within two minutes")
	}
}

// kill sends SIGKILL: no shutdown, nothing flushed.
func (in *instance) kill() {
	if in.cmd != nil {
		in.cmd.Process.Kill()
		in.cmd.Wait()
		in.cmd = nil
	}
}

// ready says whether the instance's own /readyz answers 200.
func (in *instance) ready() bool {
	res, err := quick.Get("http://" + in.addr + "/readyz")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

var quick = &http.Client{Timeout: 5 * time.Second}

// untilReady waits (up to two minutes) until every instance is ready and returns how long
// that took.
func untilReady(t *testing.T, ins []*instance) time.Duration {
	t.Helper()
	start := time.Now()
	for _, in := range ins {
		for !in.ready() {
			if time.Since(start) > 2*time.Minute {
				t.Fatalf("instance %s not ready two minutes after the database returned", in.addr)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return time.Since(start)
}

// need skips t with one line saying how to run it when prog is missing (fails it when
// CI=true).
func need(t *testing.T, prog string) string {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err == nil {
		return path
	}
	msg := prog + " is not installed; to run this test: apt-get install -y haproxy pgbouncer"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// serverLine matches a server line of docs/deploy/haproxy.cfg, whose address the tests replace.
var serverLine = regexp.MustCompile(`(?m)^(\s*server app(\d)) \S+`)

// startHAProxy runs docs/deploy/haproxy.cfg, as documented, in front of ins, and returns the
// frontend's base URL once a request through it is answered.
func startHAProxy(t *testing.T, ins []*instance) string {
	t.Helper()
	bin := need(t, "haproxy")
	raw, err := os.ReadFile("../../docs/deploy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	front := "127.0.0.1:" + strconv.Itoa(freePort(t))
	cfg := strings.Replace(string(raw), "bind :8080", "bind "+front, 1)
	cfg = serverLine.ReplaceAllStringFunc(cfg, func(line string) string {
		m := serverLine.FindStringSubmatch(line)
		n, _ := strconv.Atoi(m[2])
		return m[1] + " " + ins[n-1].addr
	})
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-q", "-f", path)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	base := "http://" + front
	waitFor(t, "HAProxy to route /readyz", func() bool {
		select {
		case <-exited:
			t.Fatalf("haproxy exited: %v", cmd.ProcessState)
		default:
		}
		res, err := quick.Get(base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return base
}

// startPgBouncer runs docs/deploy/pgbouncer.ini, as documented, in front of the server on
// port, and returns the URL of its allfives database.
func startPgBouncer(t *testing.T, port int) string {
	t.Helper()
	bin := need(t, "pgbouncer")
	raw, err := os.ReadFile("../../docs/deploy/pgbouncer.ini")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "allfives-pgb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	listen := freePort(t)
	var out []string
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(line, "allfives = "):
			line = strings.Replace(line, "host=10.0.0.5 port=5432 dbname=allfives", fmt.Sprintf("host=127.0.0.1 port=%d dbname=postgres", port), 1)
		case strings.HasPrefix(line, "listen_addr"):
			line = "listen_addr = 127.0.0.1"
		case strings.HasPrefix(line, "listen_port"):
			line = "listen_port = " + strconv.Itoa(listen)
		case strings.HasPrefix(line, "auth_file"):
			line = "auth_file = " + filepath.Join(dir, "userlist.txt")
		}
		out = append(out, line)
	}
	out = append(out, "unix_socket_dir =", "logfile = "+filepath.Join(dir, "pgbouncer.log"))
	ini := filepath.Join(dir, "pgbouncer.ini")
	for name, text := range map[string]string{ini: strings.Join(out, "\n") + "\n", filepath.Join(dir, "userlist.txt"): `"postgres" ""` + "\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-q", ini) // its log is in the logfile
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root. Started as postgres directly, not through runuser,
		// so that killing cmd kills PgBouncer itself.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatal(err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "PgBouncer to listen", func() bool {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(listen), time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/allfives?sslmode=disable&default_query_exec_mode=exec", listen)
}

// waitFor polls ok every 50 ms for up to two minutes.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for start := time.Now(); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 2*time.Minute {
			t.Fatalf("waited two minutes for %s", what)
		}
	}
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
