package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/allfives/allfives/domain/app/players"
)

var _ players.TicketStore = (*Store)(nil)

// ticketKey is a ticket's place in Store.tickets: its match and its hash, as the SQL stores key it.
func ticketKey(match string, hash []byte) string { return match + "\x00" + string(hash) }

// PutTicket stores t under hash and deletes the tickets expired at now.
func (s *Store) PutTicket(ctx context.Context, hash []byte, t players.Ticket, now time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.ticketsMu.Lock()
	defer s.ticketsMu.Unlock()
	if s.tickets == nil {
		s.tickets = map[string]players.Ticket{}
	}
	for k, old := range s.tickets {
		if !old.ExpiresAt.After(now) {
			delete(s.tickets, k)
		}
	}
	t.Credential = slices.Clone(t.Credential)
	t.ExpiresAt = t.ExpiresAt.UTC()
	s.tickets[ticketKey(t.Match, hash)] = t
	return nil
}

// TakeTicket deletes and returns the ticket of match under hash, if it expires after now.
func (s *Store) TakeTicket(ctx context.Context, match string, hash []byte, now time.Time) (players.Ticket, bool, error) {
	if err := ctx.Err(); err != nil {
		return players.Ticket{}, false, err
	}
	s.ticketsMu.Lock()
	defer s.ticketsMu.Unlock()
	k := ticketKey(match, hash)
	t, ok := s.tickets[k]
	if !ok {
		return players.Ticket{}, false, nil
	}
	delete(s.tickets, k)
	if !t.ExpiresAt.After(now) {
		return players.Ticket{}, false, nil
	}
	t.Credential = slices.Clone(t.Credential)
	return t, true, nil
}
