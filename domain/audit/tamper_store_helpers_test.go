package audit_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/audit"
)

// tamperRow is a stored event as a durable store keeps it: encoded payload and chain links.
type tamperRow struct {
	seq        int
	typ        domain.EventType
	at         time.Time
	data       []byte
	prev, hash []byte
}

// tamperStore is an EventStore that passes through to a real one until a match is frozen; from
// then on it serves that match's log and read model from rows a test may change, as someone
// with write access to the database could. Its Events and VerifyChain behave as memstore's:
// decode each row by its type, and re-hash the stored bytes link by link.
type tamperStore struct {
	referee.EventStore
	mu   sync.Mutex
	rows map[string][]tamperRow
	sums map[string]domain.Summary
}

func newTamperStore(inner referee.EventStore) *tamperStore {
	return &tamperStore{EventStore: inner, rows: map[string][]tamperRow{}, sums: map[string]domain.Summary{}}
}

// tamper freezes match id and lets edit change its rows and read model.
func (s *tamperStore) tamper(t *testing.T, id string, edit func(rows []tamperRow, sum *domain.Summary) []tamperRow) {
	t.Helper()
	ctx := context.Background()
	stored, err := s.EventStore.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.EventStore.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]tamperRow, len(events))
	for i, e := range events {
		data, err := domain.EncodeData(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = tamperRow{seq: e.Seq, typ: e.Type, at: e.At, data: data}
	}
	rehash(rows)
	sum := stored.Summary
	rows = edit(rows, &sum)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[id], s.sums[id] = rows, sum
}

// rehash recomputes every link, as a forger covering their tracks would.
func rehash(rows []tamperRow) {
	var prev []byte
	for i := range rows {
		r := &rows[i]
		r.prev, r.hash = prev, audit.ChainHash(prev, r.seq, r.typ, r.data)
		prev = r.hash
	}
}

func (s *tamperStore) frozen(id string) ([]tamperRow, domain.Summary, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rows, ok := s.rows[id]
	return rows, s.sums[id], ok
}

func (s *tamperStore) Match(ctx context.Context, id string) (referee.StoredMatch, error) {
	m, err := s.EventStore.Match(ctx, id)
	if _, sum, ok := s.frozen(id); ok && err == nil {
		m.Summary = sum
	}
	return m, err
}

func (s *tamperStore) Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error) {
	rows, _, ok := s.frozen(id)
	if !ok {
		return s.EventStore.Events(ctx, id, after, limit)
	}
	out := []domain.Event{}
	for _, r := range rows {
		if r.seq <= after || (limit > 0 && len(out) == limit) {
			continue
		}
		data, err := domain.DecodeEventData(r.typ, r.data)
		if err != nil {
			return nil, fmt.Errorf("events of %q, seq %d: %w", id, r.seq, err)
		}
		out = append(out, domain.Event{Seq: r.seq, Type: r.typ, At: r.at, Data: data})
	}
	return out, nil
}

func (s *tamperStore) VerifyChain(ctx context.Context, id string) (audit.ChainReport, error) {
	rows, _, ok := s.frozen(id)
	if !ok {
		return s.EventStore.VerifyChain(ctx, id)
	}
	rep := audit.ChainReport{OK: true, Events: len(rows)}
	var prev []byte
	for i, r := range rows {
		want := audit.ChainHash(prev, r.seq, r.typ, r.data)
		switch {
		case r.seq != i+1:
			rep.OK, rep.FirstBadSeq, rep.Detail = false, i+1, fmt.Sprintf("expected seq %d, found %d", i+1, r.seq)
		case !bytes.Equal(r.prev, prev):
			rep.OK, rep.FirstBadSeq, rep.Detail = false, r.seq, "prev_hash does not match the previous event's hash"
		case !bytes.Equal(r.hash, want):
			rep.OK, rep.FirstBadSeq, rep.Detail = false, r.seq, "hash does not match the event's contents"
		}
		if !rep.OK {
			return rep, nil
		}
		prev = want
	}
	rep.HeadHash = hex.EncodeToString(prev)
	return rep, nil
}
