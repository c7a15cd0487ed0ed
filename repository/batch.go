package repository

import (
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// EncodeBatch checks that events form one batch a store may append (at least one event,
// consecutive seqs, each payload of its event's type) and returns each payload's durable JSON:
// the bytes a store keeps and hashes. Whether the batch starts right after the log's head is
// the store's to check, under its own lock.
func EncodeBatch(events []domain.Event) ([][]byte, error) {
	if len(events) == 0 {
		return nil, domain.Invalidf("nothing to append")
	}
	out := make([][]byte, len(events))
	for i, e := range events {
		if want := events[0].Seq + i; e.Seq != want {
			return nil, domain.Invalidf("event %d has seq %d, want %d", i, e.Seq, want)
		}
		if e.Data == nil || e.Data.EventType() != e.Type {
			return nil, domain.Invalidf("seq %d: payload does not match type %q", e.Seq, e.Type)
		}
		data, err := domain.EncodeData(e.Data)
		if err != nil {
			return nil, fmt.Errorf("encode seq %d: %w", e.Seq, err)
		}
		out[i] = data
	}
	return out, nil
}

// Link chains an encoded batch onto prev, the hash of the log's head (nil for an empty log):
// each link's prev_hash is the hash before it (docs/design.md, "Events"). Both stores link
// through it, so they hash alike.
func Link(prev []byte, events []domain.Event, payloads [][]byte) []audit.ChainLink {
	links := make([]audit.ChainLink, len(events))
	for i, e := range events {
		h := audit.ChainHash(prev, e.Seq, e.Type, payloads[i])
		links[i] = audit.ChainLink{Seq: e.Seq, Type: e.Type, Data: payloads[i], PrevHash: prev, Hash: h}
		prev = h
	}
	return links
}

// StartsAt checks that a batch continues a log whose head is seq after.
func StartsAt(events []domain.Event, after int) error {
	if events[0].Seq != after+1 {
		return domain.Invalidf("the first event has seq %d, want %d", events[0].Seq, after+1)
	}
	return nil
}
