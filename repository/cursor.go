package repository

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultHistoryLimit is the page size when a history query leaves its limit at zero.
const DefaultHistoryLimit = 50

// TimeLayout is how stores write times they compare as text: UTC, fixed width, nanoseconds,
// so text order is time order.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// Cursor names a match's place in the history order (created_at, then id, both descending):
// a page's cursor is its last match, so pages stay put when newer matches arrive.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// Before says whether c comes after o in newest-first order, that is, c is older.
func (c Cursor) Before(o Cursor) bool {
	if d := c.CreatedAt.Compare(o.CreatedAt); d != 0 {
		return d < 0
	}
	return c.ID < o.ID
}

// Encode is the opaque form clients see: base64url of "v1|<created_at>|<id>". The version tag
// lets the format change later without misreading old cursors.
func (c Cursor) Encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte("v1|" + c.CreatedAt.UTC().Format(TimeLayout) + "|" + c.ID))
}

// DecodeCursor reads a cursor that Encode wrote; anything else is a malformed request.
func DecodeCursor(s string) (Cursor, error) {
	bad := domain.Invalidf("malformed cursor")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Cursor{}, bad
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 || parts[0] != "v1" || parts[2] == "" {
		return Cursor{}, bad
	}
	// Only the exact form Encode writes is accepted, so a cursor compares as the stores do.
	at, err := time.Parse(TimeLayout, parts[1])
	if err != nil || at.UTC().Format(TimeLayout) != parts[1] {
		return Cursor{}, bad
	}
	return Cursor{CreatedAt: at, ID: parts[2]}, nil
}
