-- The server's own secret keys: the same table as sqlite/00011_server_keys.sql. Every instance
-- sharing the database signs and checks the ratings' cursors with the one key of that name:
-- the first instance that needs it inserts one (ON CONFLICT DO NOTHING), and all read it back.

-- +goose Up
CREATE TABLE server_keys (
    name       TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    key        BYTEA NOT NULL CHECK (length(key) = 32),
    created_at TEXT COLLATE "C" NOT NULL
);

-- +goose Down
DROP TABLE server_keys;
