package referee

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// ExportRecord is a match's whole record as one viewer may see it (docs/api-records.md, "Replay, audit and export"): the
// match view and every event, redacted as the events endpoint redacts them. Chain holds, for a
// closed match only (finished, or expired or cancelled before any deal), each event's stored
// payload bytes and hashes, so that anyone can verify the export offline (docs/api-records.md,
// "Verifying an export"). A live match's export has no chain: the raw payloads hold every
// hand, and even a hash alone gives away a drawn tile, which is one of at most 28 candidates
// to try. A match closed before its first deal holds no hand at all.
type ExportRecord struct {
	Match  domain.MatchView
	Events []domain.Event
	Chain  []audit.ChainLink
	// Prefix, on a closed branch's export (docs/review.md, "Play on"), is its parent's log up
	// to the branch's step - 1, each event with its payload and link, so that the export
	// checks the prefix its own log repeats against the parent's hash from one file.
	Prefix      []domain.Event
	PrefixChain []audit.ChainLink
}

// Export returns the match as v may see it and every event up to the view's version, redacted
// for v. Reading the log only up to the view's version keeps the two consistent while moves
// land.
func (s *MatchService) Export(ctx context.Context, id string, v domain.Viewer) (ExportRecord, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return ExportRecord{}, err
	}
	if v, err = s.sealFor(ctx, e.match, v, true); err != nil {
		s.release(e)
		return ExportRecord{}, err
	}
	view, finished, closed, version := e.match.View(v), e.match.Revealed(), e.match.Closed(), e.match.Version()
	s.release(e)
	events, err := s.store.Events(ctx, id, 0, version)
	if err != nil {
		return ExportRecord{}, corrupt(id, err)
	}
	rec := ExportRecord{Match: view, Events: v.RedactAll(events, finished)}
	if !closed || v.IsSealed() { // the links hold every payload as hashed: none while sealed
		return rec, nil
	}
	// A closed match takes no more events, so its links are the same log as its events.
	if rec.Chain, err = s.store.Links(ctx, id); err != nil {
		return ExportRecord{}, err
	}
	if len(rec.Chain) != len(events) {
		return ExportRecord{}, fmt.Errorf("export %s: %d links for %d events", id, len(rec.Chain), len(events))
	}
	if b := view.BranchOf; b != nil {
		if rec.Prefix, rec.PrefixChain, err = s.prefixOf(ctx, b); err != nil {
			return ExportRecord{}, err
		}
	}
	return rec, nil
}

// prefixOf is the log a branch repeats, its parent's events before b.Step with their links:
// the parent is finished, so everyone may read them unredacted.
func (s *MatchService) prefixOf(ctx context.Context, b *domain.BranchOf) ([]domain.Event, []audit.ChainLink, error) {
	events, err := s.store.Events(ctx, b.Match, 0, b.Step-1)
	if err != nil {
		return nil, nil, corrupt(b.Match, err)
	}
	links, err := s.store.Links(ctx, b.Match)
	if err != nil {
		return nil, nil, err
	}
	if len(events) != b.Step-1 || len(links) < b.Step-1 {
		return nil, nil, fmt.Errorf("export of a branch of %s: %d events and %d links before step %d", b.Match, len(events), len(links), b.Step)
	}
	return events, links[:b.Step-1], nil
}

// Audit re-verifies a stored match: its hash chain, every event against the rules, its read
// model against the log and, once the seed is revealed, the seed and every deal (see
// audit.Report). It reads the store, not the cache: the durable record is what is audited. A
// damaged record is a failed check, not an error; errors are for a missing match or a store
// that cannot answer. The head hash is reported only once the match has ended (docs/api-records.md,
// "Verifying an export").
func (s *MatchService) Audit(ctx context.Context, id string, v domain.Viewer) (audit.Report, error) {
	stored, chain, log, err := s.readForAudit(ctx, id)
	if err != nil {
		return audit.Report{}, err
	}
	recs, err := s.store.IdempotencyRecords(ctx, id)
	if err != nil {
		return audit.Report{}, err
	}
	// The stored record, not the cache: a record that cannot be folded is audited all the same.
	if v, err = s.sealForLog(ctx, id, log.Events, v); err != nil {
		return audit.Report{}, err
	}
	rep := audit.Stored(id, chain, sideRows(stored, recs), log, v, s.chooser(ctx))
	if !audit.Closed(log.Events) || v.IsSealed() {
		// A live match's head hash would give hidden tiles away: with the head before a draw
		// (an earlier audit's), anyone could try the 28 tiles against the head after it.
		rep.HeadHash = ""
	}
	return rep, nil
}

// sideRows is what the audit judges of what the store keeps beside the log.
func sideRows(stored StoredMatch, recs []IdempotencyRecord) audit.SideRows {
	rows := audit.SideRows{Summary: stored.Summary, SummaryErr: stored.SummaryErr, Seed: stored.Record.Seed}
	for _, s := range stored.Record.Seats {
		has := len(s.TokenHash) == sha256.Size
		rows.Seats = append(rows.Seats, audit.Seat{Seat: s.Seat, Kind: s.Kind, HasToken: has, Unclaimed: !has && stored.Record.RematchOf != ""})
	}
	for _, r := range recs {
		rows.Idempotency = append(rows.Idempotency, audit.Idempotency{Seat: r.Seat, Fingerprint: r.Fingerprint, FirstSeq: r.FirstSeq, LastSeq: r.LastSeq})
	}
	return rows
}

// readForAudit reads the read model, the chain and the log under the match's lock, so that no
// move lands between the three reads. The checks then run without the lock: re-running a long
// log takes a while, and an audit, which anyone may ask for, must not hold up the players.
func (s *MatchService) readForAudit(ctx context.Context, id string) (stored StoredMatch, chain audit.ChainReport, log audit.LogRead, err error) {
	release, err := s.hold(ctx, id)
	if err != nil {
		return stored, chain, log, err
	}
	defer release()
	if stored, err = s.store.Match(ctx, id); err != nil {
		return stored, chain, log, err
	}
	if chain, err = s.store.VerifyChain(ctx, id); err != nil {
		return stored, chain, log, err
	}
	log, err = s.readLog(ctx, id)
	return stored, chain, log, err
}

// hold takes the match's lock, so that no move lands between an audit's reads of the read model,
// the chain and the log. A log that does not fold cannot be loaded, and cannot take a move
// either: it is audited as stored, without the lock.
func (s *MatchService) hold(ctx context.Context, id string) (release func(), err error) {
	e, err := s.acquire(ctx, id)
	switch {
	case errors.Is(err, domain.ErrMatchNotFound):
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return func() {}, nil
	}
	return func() { s.release(e) }, nil
}

// readPage is how many events readLog asks for at once once a read has failed.
const readPage = 100

// readLog reads a match's whole log. When the store cannot decode an event, it reads again page
// by page, then event by event, to return every event before the unreadable one and its seq.
func (s *MatchService) readLog(ctx context.Context, id string) (audit.LogRead, error) {
	events, err := s.store.Events(ctx, id, 0, 0)
	if err == nil || errors.Is(err, domain.ErrMatchNotFound) || ctx.Err() != nil {
		return audit.LogRead{Events: events}, err
	}
	var read audit.LogRead
	last := func() int {
		if n := len(read.Events); n > 0 {
			return read.Events[n-1].Seq
		}
		return 0
	}
	for size := readPage; ; {
		page, err := s.store.Events(ctx, id, last(), size)
		switch {
		case ctx.Err() != nil:
			return audit.LogRead{}, ctx.Err()
		case err != nil && size > 1:
			size = 1 // the bad event is in this page: find it
		case err != nil:
			read.Unreadable, read.Err = last()+1, err
			return read, nil
		case len(page) == 0 || page[0].Seq <= last():
			return read, nil // the end, or a store going backwards, which the checks will catch
		default:
			read.Events = append(read.Events, page...)
		}
	}
}
