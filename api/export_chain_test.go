package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
)

// chainExample is the match of the worked example in docs/api-records.md, "Verifying an export": two
// greedy bots dealt from seed1, so it ends as it is created and its first events are fixed.
var chainExample = api.CreateMatchRequest{Seed: seed1, Players: []api.PlayerRequest{
	{Name: "Ann", Kind: "bot", Bot: "greedy"}, {Name: "Bob", Kind: "bot", Bot: "greedy"},
}}

// chainHash is the formula of docs/api-records.md, written here again with nothing but crypto/sha256:
// sha256(prev_hash bytes || seq as 8 bytes big-endian || type || raw_data).
func chainHash(prev []byte, seq int, typ, raw string) []byte {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(seq))
	sum := sha256.Sum256(bytes.Join([][]byte{prev, n[:], []byte(typ), []byte(raw)}, nil))
	return sum[:]
}

// TestExportChainReproduces: the chain of a known seeded match is reproduced from its export
// alone with the documented formula, event by event; its head is the one the server's audit
// reports; every raw_data says what its data says; and the worked example of docs/api-records.md is
// this very match's first two events.
func TestExportChainReproduces(t *testing.T) {
	h := newHarness(t)
	tb := h.createMatch(chainExample)
	var exp api.ExportResponse
	tb.fetch("/export", -1, &exp)
	if exp.Match.Status != "finished" {
		t.Fatalf("the example match is %s, want finished", exp.Match.Status)
	}
	var prev []byte
	for i, e := range exp.Events {
		if e.PrevHash == nil || e.Hash == nil || e.RawData == nil {
			t.Fatalf("seq %d has no chain link", e.Seq)
		}
		if e.Seq != i+1 || *e.PrevHash != hex.EncodeToString(prev) {
			t.Fatalf("seq %d at index %d: prev_hash %s, want %x", e.Seq, i, *e.PrevHash, prev)
		}
		prev = chainHash(prev, e.Seq, e.Type, *e.RawData)
		if *e.Hash != hex.EncodeToString(prev) {
			t.Fatalf("seq %d: hash %s, the formula gives %x over %s", e.Seq, *e.Hash, prev, *e.RawData)
		}
		var raw, data any
		if err := json.Unmarshal([]byte(*e.RawData), &raw); err != nil {
			t.Fatalf("seq %d: raw_data is not JSON: %v", e.Seq, err)
		}
		if err := json.Unmarshal([]byte(jsonOf(t, e.Data)), &data); err != nil {
			t.Fatal(err)
		}
		if jsonOf(t, raw) != jsonOf(t, data) {
			t.Fatalf("seq %d: raw_data %s says something else than data %s", e.Seq, *e.RawData, jsonOf(t, e.Data))
		}
	}
	var audit api.AuditReport
	tb.fetch("/audit", -1, &audit)
	if !audit.OK || audit.HeadHash == nil || *audit.HeadHash != hex.EncodeToString(prev) {
		t.Fatalf("audit head %v ok %v, the export's chain gives %x", audit.HeadHash, audit.OK, prev)
	}

	doc, err := os.ReadFile("../docs/api-records.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exp.Events[:2] {
		for _, want := range []string{*e.RawData, *e.Hash} {
			if !strings.Contains(string(doc), want) {
				t.Errorf("docs/api-records.md's worked example does not show seq %d's %.80s", e.Seq, want)
			}
		}
	}
	if t.Failed() {
		for _, e := range exp.Events[:2] {
			t.Logf("seq %d %s\nraw_data %s\nprev_hash %s\nhash %s", e.Seq, e.Type, *e.RawData, *e.PrevHash, *e.Hash)
		}
	}
}
