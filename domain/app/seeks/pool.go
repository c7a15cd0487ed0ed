package seeks

import (
	"context"
	"time"
)

// The matcher keeps the pool it read between passes, and reads again only the seeks made
// since (with an overlap for creates that commit late), so that a pass over a large pool costs
// the store little: a seek cancelled or claimed elsewhere leaves the copy at the next full
// read (fullReadEvery), or as soon as a claim finds it gone.
const (
	fullReadEvery = 2 * time.Second
	// readOverlap is how far back each read looks before the newest seek seen: a seek whose
	// create committed later than a newer one's is still found.
	readOverlap = 250 * time.Millisecond
)

// pool is the matcher's copy of the searching seeks. Only the matcher's pass touches it.
type pool struct {
	seeks  map[string]Record
	newest time.Time // the newest CreatedAt read
	readAt time.Time // the last full read; zero: read in full next
}

// invalidate makes the next pass read the pool in full: another instance paired meanwhile.
func (p *pool) invalidate() { p.readAt = time.Time{} }

// refresh brings the copy up to date at now.
func (s *Service) refresh(ctx context.Context, now time.Time) error {
	p := &s.pool
	if p.readAt.IsZero() || now.Sub(p.readAt) >= fullReadEvery {
		recs, err := s.store.SearchingSeeks(ctx, DefaultPool)
		if err != nil {
			return err
		}
		p.seeks, p.newest, p.readAt = make(map[string]Record, len(recs)), time.Time{}, now
		p.add(recs)
		return nil
	}
	recs, err := s.store.SearchingSince(ctx, p.newest.Add(-readOverlap), DefaultPool)
	if err != nil {
		return err
	}
	p.add(recs)
	return nil
}

func (p *pool) add(recs []Record) {
	for _, r := range recs {
		if len(p.seeks) >= DefaultPool {
			return
		}
		p.seeks[r.ID] = r
		if r.CreatedAt.After(p.newest) {
			p.newest = r.CreatedAt
		}
	}
}

// recheck reads the seeks of ids again after a claim of them failed: those no longer
// searching leave the copy.
func (s *Service) recheck(ctx context.Context, ids []string) error {
	for _, id := range ids {
		r, ok, err := s.store.Seek(ctx, id)
		if err != nil {
			return err
		}
		if !ok || r.Status != StatusSearching {
			delete(s.pool.seeks, id)
		}
	}
	return nil
}
