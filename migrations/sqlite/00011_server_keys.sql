-- The server's own secret keys, one per purpose, shared by every process that opens the
-- database (docs/design.md, "Ratings"): the key that signs the ratings' cursors, so that a
-- cursor the server did not give is refused rather than read as a made-up rank. A key is drawn
-- by the first process that needs it (INSERT ... ON CONFLICT DO NOTHING, then read back), so
-- every instance signs and checks with the same one. It never leaves the database.

-- +goose Up
CREATE TABLE server_keys (
    name       TEXT NOT NULL PRIMARY KEY,
    key        BLOB NOT NULL CHECK (length(key) = 32),
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE server_keys;
