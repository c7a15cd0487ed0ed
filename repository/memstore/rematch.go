package memstore

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

var _ referee.RematchStore = (*Store)(nil)

// LinkRematch sets the rematch of match id unless one is set already.
func (s *Store) LinkRematch(ctx context.Context, id, next string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[id]
	if !ok {
		return fmt.Errorf("match %q: %w", id, domain.ErrMatchNotFound)
	}
	if m.rec.NextMatchID == "" {
		m.rec.NextMatchID = next
	}
	return nil
}

// ClaimSeat stores hash as the token hash of human seat seat of match id if it has none.
func (s *Store) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[id]
	if !ok {
		return false, nil
	}
	for i, sr := range m.rec.Seats {
		if sr.Seat == seat && sr.Kind == domain.Human && len(sr.TokenHash) == 0 {
			m.rec.Seats[i].TokenHash = append([]byte(nil), hash...)
			return true, nil
		}
	}
	return false, nil
}
