-- Single-use tickets for the live streams (docs/api.md, "Players"): a browser's EventSource
-- cannot send Authorization, so rather than a long-lived secret in the URL it gets a ticket,
-- good for one stream opened within 60 seconds, on any instance sharing the database.
--
-- tickets: hash is the SHA-256 of the ticket (256 random bits), its only trace. match_id is
-- the match whose stream the ticket opens ('' for the player's own stream), and leads the key
-- like every match's table: a ticket of match A is not even looked up on match B. seat is the
-- seat it stands for (-1 for the player's stream). credential is the SHA-256 of the key or
-- seat token it was issued with, and player_id the player whose key that was ('' for a seat
-- token): a stream opened with the ticket re-checks them on every read, so it ends when the
-- seat changes hands or the key is rotated. expires_at is in Unix nanoseconds; taking a
-- ticket deletes it (DELETE ... RETURNING), so it opens at most one stream, and issuing one
-- deletes those expired (tickets_expires).

-- +goose Up
CREATE TABLE tickets (
    match_id   TEXT    NOT NULL,
    hash       BLOB    NOT NULL CHECK (length(hash) = 32),
    seat       INTEGER NOT NULL CHECK (seat >= -1),
    player_id  TEXT    NOT NULL DEFAULT '',
    credential BLOB    NOT NULL CHECK (length(credential) = 32),
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (match_id, hash)
) WITHOUT ROWID;
CREATE INDEX tickets_expires ON tickets (expires_at);

-- +goose Down
DROP INDEX tickets_expires;
DROP TABLE tickets;
