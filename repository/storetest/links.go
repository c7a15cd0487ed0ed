package storetest

import (
	"bytes"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/audit"
)

// testLinks: Links gives back, for every stored event in seq order, the very bytes that were
// hashed (the payload's durable encoding) with the prev_hash and hash that chain them, so an
// export built from it verifies with nothing but the formula of docs/api-records.md.
func testLinks(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-links", Base, 0)
	mustCreate(t, s, f)
	f.PlayToEnd(t, s, 25)
	links, err := s.Links(ctx, f.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != len(f.Events) {
		t.Fatalf("%d links, want %d", len(links), len(f.Events))
	}
	var prev []byte
	for i, l := range links {
		e := f.Events[i]
		want, err := domain.EncodeData(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		if l.Seq != e.Seq || l.Type != e.Type || !bytes.Equal(l.Data, want) {
			t.Fatalf("link %d is seq %d %s %s, want seq %d %s %s", i, l.Seq, l.Type, l.Data, e.Seq, e.Type, want)
		}
		if !bytes.Equal(l.PrevHash, prev) || !bytes.Equal(l.Hash, audit.ChainHash(prev, e.Seq, e.Type, want)) {
			t.Fatalf("seq %d: prev_hash %x hash %x do not chain from %x", l.Seq, l.PrevHash, l.Hash, prev)
		}
		prev = l.Hash
	}
	if rep := audit.VerifyLinks(links); !rep.OK || rep.HeadHash != ChainHead(t, f.Events) {
		t.Fatalf("links verify as %+v, want ok with head %s", rep, ChainHead(t, f.Events))
	}
	// What a caller does with the links must not reach the store.
	links[0].Data[0] ^= 1
	links[0].Hash[0] ^= 1
	again, err := s.Links(ctx, f.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep := audit.VerifyLinks(again); !rep.OK {
		t.Fatalf("changing a returned link changed the store: %+v", rep)
	}
	if _, err := s.Links(ctx, "m-nope"); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("links of a missing match: %v, want ErrMatchNotFound", err)
	}
}
