package players

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"time"
)

// TicketTTL is how long a ticket may wait before it opens its stream.
const TicketTTL = 60 * time.Second

// TicketPrefix starts every ticket, so that a ticket is never taken for a key or a seat token.
const TicketPrefix = "aft_"

// ticketBytes is a ticket's randomness: 256 bits, like a key's.
const ticketBytes = 32

var ticketLength = len(TicketPrefix) + base64.RawURLEncoding.EncodedLen(ticketBytes)

// Ticket is what the store keeps of a single-use ticket, besides its hash: the stream it
// opens and the credential it was issued with (docs/api-players.md, "Players"). A stream opened with
// a ticket holds no more than that credential: it re-checks it on every read.
type Ticket struct {
	// Match is the match whose stream the ticket opens; "" for the player's own stream.
	Match string
	// Seat is the seat of Match the ticket stands for; -1 for the player's stream.
	Seat int
	// Player is the player whose key the ticket was issued with; "" for a seat token.
	Player string
	// Credential is the SHA-256 of the key or seat token the ticket was issued with.
	Credential []byte
	// ExpiresAt is when the ticket stops opening its stream.
	ExpiresAt time.Time
}

// TicketStore is what a Store also implements to keep tickets where every instance sharing
// it finds them: every store in repository/ does (storetest.RunTickets).
type TicketStore interface {
	// PutTicket stores t under hash, the SHA-256 of the ticket, and deletes the tickets that
	// expired at or before now.
	PutTicket(ctx context.Context, hash []byte, t Ticket, now time.Time) error
	// TakeTicket deletes the ticket of match stored under hash and returns it, if it expires
	// after now; ok is false when there is none (never issued, taken already, or of another
	// match) or it has expired. Of two calls racing for one ticket, on any instances, at most one
	// gets ok.
	TakeTicket(ctx context.Context, match string, hash []byte, now time.Time) (t Ticket, ok bool, err error)
}

// IssuedTicket is a ticket as its caller gets it, once.
type IssuedTicket struct {
	Ticket    string
	ExpiresAt time.Time
}

// errBadTicket refuses any ticket that does not open the stream asked for: the same words for
// each reason, which never hold the ticket.
var errBadTicket = unauthorized("the ticket is not valid: it was used already, it expired, or it is not for this stream; ask for a new one")

// errNoTickets is a store that keeps no tickets.
var errNoTickets = errors.New("the store keeps no tickets")

// HashCredential is the SHA-256 of a key or seat token, as a Ticket's Credential holds it.
func HashCredential(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

// IsTicket reports whether s has the shape of a ticket.
func IsTicket(s string) bool {
	if len(s) != ticketLength || !strings.HasPrefix(s, TicketPrefix) {
		return false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s[len(TicketPrefix):])
	return err == nil && len(b) == ticketBytes
}

// PlayerTicket issues a ticket to the stream of the player whose key is key.
func (s *Service) PlayerTicket(ctx context.Context, key string) (IssuedTicket, error) {
	rec, err := s.authenticate(ctx, key)
	if err != nil {
		return IssuedTicket{}, err
	}
	return s.IssueTicket(ctx, Ticket{Seat: -1, Player: rec.ID, Credential: rec.KeyHash})
}

// IssueTicket stores a new ticket for t (its ExpiresAt is set here) and returns it. The caller
// has checked t's credential.
func (s *Service) IssueTicket(ctx context.Context, t Ticket) (IssuedTicket, error) {
	st, ok := s.store.(TicketStore)
	if !ok {
		return IssuedTicket{}, errNoTickets
	}
	b, err := s.random(ticketBytes)
	if err != nil {
		return IssuedTicket{}, err
	}
	ticket := TicketPrefix + base64.RawURLEncoding.EncodeToString(b)
	now := s.now().UTC()
	t.ExpiresAt = now.Add(TicketTTL)
	if err := st.PutTicket(ctx, HashCredential(ticket), t, now); err != nil {
		return IssuedTicket{}, err
	}
	return IssuedTicket{Ticket: ticket, ExpiresAt: t.ExpiresAt}, nil
}

// Redeem takes ticket for the stream of match ("" for the player's stream): the ticket is
// spent, and what it was issued for returned. A ticket used, expired, of another stream or
// malformed is domain.ErrUnauthorized, the same refusal for each.
func (s *Service) Redeem(ctx context.Context, match, ticket string) (Ticket, error) {
	st, ok := s.store.(TicketStore)
	if !ok {
		return Ticket{}, errNoTickets
	}
	if !IsTicket(ticket) {
		return Ticket{}, errBadTicket
	}
	t, ok, err := st.TakeTicket(ctx, match, HashCredential(ticket), s.now().UTC())
	switch {
	case err != nil:
		return Ticket{}, err
	case !ok || t.Match != match:
		return Ticket{}, errBadTicket
	}
	return t, nil
}

// KeyHeld checks that player's current key is still the one that hashes to keyHash: a
// stream opened with a key, or with a ticket issued for one, ends when the key is rotated.
func (s *Service) KeyHeld(ctx context.Context, player string, keyHash []byte) error {
	rec, err := s.store.Player(ctx, player)
	if err != nil {
		if errors.Is(err, ErrPlayerNotFound) {
			return errBadKey
		}
		return err
	}
	if !sameHash(rec.KeyHash, keyHash) {
		return errBadKey
	}
	return nil
}
