package sqlrow

import (
	"fmt"

	"gorm.io/gorm"
)

// ServerKey is the key named name in server_keys (migration 00011), stored first as fresh when
// the table has none of that name, the same statements on both engines: of processes racing to
// store one, the first insert wins (ON CONFLICT DO NOTHING waits for a racing insert of the
// same name to commit or roll back), and every one of them reads back the key that won.
func ServerKey(db *gorm.DB, name string, fresh []byte, at string) ([]byte, error) {
	if len(fresh) != 32 {
		return nil, fmt.Errorf("server key %q: a key is 32 bytes, not %d", name, len(fresh))
	}
	if err := db.Exec("INSERT INTO server_keys (name, key, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
		name, Blob(fresh), at).Error; err != nil {
		return nil, fmt.Errorf("server key %q: %w", name, err)
	}
	var key []byte
	if err := db.Raw("SELECT key FROM server_keys WHERE name = ?", name).Row().Scan(&key); err != nil {
		return nil, fmt.Errorf("server key %q: %w", name, err)
	}
	return key, nil
}
