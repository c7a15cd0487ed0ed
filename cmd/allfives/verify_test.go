package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain"
)

// exportOf fetches a match's JSON export from the server serve wires (internal/server, every
// feature on) over the fixture's database, reviewing a finished match first, so that the
// export carries its review's state as the real server's do.
func exportOf(t *testing.T, f *replayFixture, id string) []byte {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits = f.path, "normal", server.Limits{}
	cfg.BotSeed, cfg.Review = 3, apitest.SmallReview
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s.Handler)
	defer srv.Close()
	get := func(path string) []byte {
		resp, err := http.Get(srv.URL + "/api/v1/matches/" + id + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, body)
		}
		return body
	}
	var v api.MatchView
	if err := json.Unmarshal(get(""), &v); err != nil {
		t.Fatal(err)
	}
	if v.Status == "finished" {
		resp, err := http.Post(srv.URL+"/api/v1/matches/"+id+"/review", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for i := 0; v.Review != "done"; i++ {
			if i > 6000 || v.Review == "failed" {
				t.Fatalf("the review of %s is %q", id, v.Review)
			}
			time.Sleep(5 * time.Millisecond)
			if err := json.Unmarshal(get(""), &v); err != nil {
				t.Fatal(err)
			}
		}
	}
	return get("/export")
}

// verifyFile writes body to a file and runs allfives verify on it.
func verifyFile(t *testing.T, body []byte) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"verify", path}, func(string) string { return "" }, &out)
	return out.String(), err
}

// editable is an export as the tests tamper with it: the events as generic JSON objects.
type editable struct {
	Match  json.RawMessage  `json:"match"`
	Events []map[string]any `json:"events"`
}

func parseExport(t *testing.T, body []byte) editable {
	t.Helper()
	var e editable
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e editable) bytes(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rehash recomputes every hash from index i on with the formula of docs/api-records.md, as a forger
// would to hide an edit from the chain check: what catches the edit is then the rules, the
// seed or the deals.
func (e editable) rehash(t *testing.T, from int) {
	t.Helper()
	prev, err := hex.DecodeString(e.Events[from]["prev_hash"].(string))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range e.Events[from:] {
		ev["prev_hash"] = hex.EncodeToString(prev)
		h := sha256.New()
		h.Write(prev)
		binary.Write(h, binary.BigEndian, uint64(ev["seq"].(float64)))
		h.Write([]byte(ev["type"].(string)))
		h.Write([]byte(ev["raw_data"].(string)))
		prev = h.Sum(nil)
		ev["hash"] = hex.EncodeToString(prev)
	}
}

// indexOf is the index of the first event of type typ.
func (e editable) indexOf(t *testing.T, typ domain.EventType) int {
	t.Helper()
	for i, ev := range e.Events {
		if ev["type"] == string(typ) {
			return i
		}
	}
	t.Fatalf("the export has no %s", typ)
	return -1
}

// TestVerifyFinishedExport: verify passes the export of a finished match, from a file and from
// standard input, and prints every check.
func TestVerifyFinishedExport(t *testing.T) {
	f := newReplayFixture(t)
	body := exportOf(t, f, f.done)
	out, err := verifyFile(t, body)
	if err != nil {
		t.Fatalf("verify of a sound export: %v\n%s", err, out)
	}
	for _, check := range []string{"export", "hash_chain", "payloads", "rules", "seed", "deals", "match"} {
		if !strings.Contains(out, "ok   "+check) {
			t.Errorf("verify does not print check %s:\n%s", check, out)
		}
	}
	if !strings.Contains(out, "verified: match "+f.done) || strings.Contains(out, "FAIL") {
		t.Fatalf("verify output:\n%s", out)
	}

	stdin, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	stdin.Write(body)
	stdin.Seek(0, io.SeekStart)
	saved := os.Stdin
	os.Stdin = stdin
	defer func() { os.Stdin = saved }()
	var buf bytes.Buffer
	if err := run(context.Background(), []string{"verify", "-"}, func(string) string { return "" }, &buf); err != nil || buf.String() != out {
		t.Fatalf("verify - : %v\n%s", err, buf.String())
	}
}

// TestVerifyLiveExport: a live match's export carries no chain, and verify says so.
func TestVerifyLiveExport(t *testing.T) {
	f := newReplayFixture(t)
	out, err := verifyFile(t, exportOf(t, f, f.live))
	if err == nil || !strings.Contains(out, "FAIL export") || !strings.Contains(out, "once the match has ended") {
		t.Fatalf("verify of a live export: %v\n%s", err, out)
	}
	for _, bad := range [][]byte{nil, []byte("{"), []byte(`{"match":{},"events":[]}`)} {
		if out, err := verifyFile(t, bad); err == nil {
			t.Fatalf("verify of %q passed:\n%s", bad, out)
		}
	}
}
