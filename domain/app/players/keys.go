package players

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"

	"github.com/allfives/allfives/domain"
)

// KeyPrefix starts every player key. A seat token is 43 characters of base64url, a key this
// prefix and 43 more, so the two can never be taken for one another: a server that accepts
// either in Authorization tells which it got without a lookup (IsKey).
const KeyPrefix = "afk_"

// keyBytes is the key's randomness: 256 bits.
const keyBytes = 32

// keyLength is the length of every key: the prefix and keyBytes in unpadded base64url.
var keyLength = len(KeyPrefix) + base64.RawURLEncoding.EncodedLen(keyBytes)

// IsKey reports whether s has the shape of a player key. It says nothing of whether the key
// is valid; Service.Authenticate does.
func IsKey(s string) bool {
	if len(s) != keyLength || !strings.HasPrefix(s, KeyPrefix) {
		return false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s[len(KeyPrefix):])
	return err == nil && len(b) == keyBytes
}

// hashKey is what the store keeps of a key: its SHA-256. A key is 256 random bits, so a
// fast hash is enough: there is nothing to guess that a slow one would protect.
func hashKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// sameHash compares a stored hash with a computed one in constant time. The store found the
// row by an equality on the hash, so this only guards against a store whose lookup matched
// more loosely than byte for byte; the lookup's own timing tells of the hash, never the key.
func sameHash(stored, computed []byte) bool {
	return len(stored) == len(computed) && subtle.ConstantTimeCompare(stored, computed) == 1
}

// unauthorized is domain.ErrUnauthorized with the player-key wording: its text is the detail
// a client reads. It never holds the key.
type unauthorized string

func (u unauthorized) Error() string { return string(u) }
func (u unauthorized) Unwrap() error { return domain.ErrUnauthorized }

// Refusals of a key. Both say the same to a key that is wrong for any reason, so an answer
// never tells a rotated key from one never issued.
var (
	errNoKey  = unauthorized("send Authorization: Bearer <player key>, the key POST /api/v1/players answered")
	errBadKey = unauthorized("the player key is not valid: it was never issued, or it was rotated")
)

// ErrNoKey is the refusal of a call that needs a player key and carried none.
var ErrNoKey error = errNoKey

// newKey is a fresh key from the service's randomness.
func (s *Service) newKey() (string, error) {
	b, err := s.random(keyBytes)
	if err != nil {
		return "", err
	}
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}
