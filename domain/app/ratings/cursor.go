package ratings

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
)

// KeyStore keeps the server's secret keys, one per name, shared by every instance of one
// database. A store that does not implement it leaves the Service a key of its own process's.
type KeyStore interface {
	// ServerKey returns the 32-byte key named name, stored first as fresh when there is none
	// of that name yet: every instance sharing the store gets the key the first one stored.
	ServerKey(ctx context.Context, name string, fresh []byte) ([]byte, error)
}

// cursorKeyName names the key that signs the cursors.
const cursorKeyName = "ratings-cursor"

// macBytes is how much of the HMAC-SHA256 a cursor carries: 128 bits, more than anyone can
// forge by trying.
const macBytes = 16

// signer signs the cursors the Service gives and checks those it is given back: a cursor
// carries a position and a rank, and one the server did not give would be read as made-up
// ranks (a forged cursor showed the real first player as rank 1000). The key is the store's
// (KeyStore), so a cursor given by one instance is good on every other.
type signer struct {
	mu  sync.Mutex
	key []byte
}

// secret is the signing key, read from (or stored first in) the store on first use.
func (sg *signer) secret(ctx context.Context, store Store) ([]byte, error) {
	sg.mu.Lock()
	defer sg.mu.Unlock()
	if sg.key != nil {
		return sg.key, nil
	}
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh) // crypto/rand.Read never fails (Go 1.24+)
	key := fresh
	if ks, ok := store.(KeyStore); ok {
		var err error
		if key, err = ks.ServerKey(ctx, cursorKeyName, fresh); err != nil {
			return nil, fmt.Errorf("the key of the cursors: %w", err)
		}
		if len(key) != 32 {
			return nil, fmt.Errorf("the key of the cursors is %d bytes, not 32", len(key))
		}
	}
	sg.key = key
	return key, nil
}

// mac is the tag of raw for scope, which names the list the cursor pages (a board's format, a
// player's history), so that a cursor of one list is no cursor of another.
func mac(key []byte, scope, raw string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(scope))
	h.Write([]byte{0})
	h.Write([]byte(raw))
	return h.Sum(nil)[:macBytes]
}

// seal is raw (base64url, so without a '.') signed for scope: raw, a '.', the tag.
func (s *Service) seal(ctx context.Context, scope, raw string) (string, error) {
	key, err := s.sign.secret(ctx, s.store)
	if err != nil {
		return "", err
	}
	return raw + "." + base64.RawURLEncoding.EncodeToString(mac(key, scope, raw)), nil
}

// unseal is the raw cursor of a sealed one for scope, or errCursor when its tag is not the
// server's.
func (s *Service) unseal(ctx context.Context, scope, cursor string) (string, error) {
	raw, tag, ok := strings.Cut(cursor, ".")
	if !ok {
		return "", errCursor
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(tag)
	if err != nil || len(got) != macBytes {
		return "", errCursor
	}
	key, err := s.sign.secret(ctx, s.store)
	if err != nil {
		return "", err
	}
	if !hmac.Equal(got, mac(key, scope, raw)) {
		return "", errCursor
	}
	return raw, nil
}

// boardScope and historyScope name the lists a cursor pages: a board's cursor carries ranks,
// good on its own format's board only; a history's is a position in time, good for the
// player's history whatever its format filter.
func boardScope(f Format) string { return "board|" + string(f) }

func historyScope(player string) string { return "history|" + player }
