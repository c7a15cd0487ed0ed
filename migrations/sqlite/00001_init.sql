-- The first schema of the All Fives store (DESIGN section 6).
--
-- Times are TEXT in one fixed-width UTC form (2006-01-02T15:04:05.000000000Z) so that text
-- order is time order: history sorts and pages on created_at without converting anything.
-- Hashes are 32-byte BLOBs; event data is the JSON of the payload, exactly the bytes hashed.

-- +goose Up
CREATE TABLE matches (
    id          TEXT    NOT NULL PRIMARY KEY,
    seed        TEXT    NOT NULL,            -- hex; secret until match.ended reveals it
    status      TEXT    NOT NULL CHECK (status IN ('in_progress', 'finished')),
    players     TEXT    NOT NULL,            -- JSON [{seat, name, kind, bot?}]
    scores      TEXT    NOT NULL,            -- JSON [per side]
    winner_side INTEGER,                     -- NULL until finished
    hands       INTEGER NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

-- History is newest first, keyset-paged on (created_at, id); the status filter walks the
-- same order within one status.
CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);

CREATE TABLE seats (
    match_id   TEXT    NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    bot        TEXT    NOT NULL DEFAULT '',
    token_hash BLOB,                         -- SHA-256 of the seat token; NULL for bots
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- The player filter of the history: exact name to the matches it played in.
CREATE INDEX seats_name_match ON seats (name, match_id);

CREATE TABLE events (
    match_id  TEXT    NOT NULL REFERENCES matches (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    type      TEXT    NOT NULL,
    data      TEXT    NOT NULL,              -- the payload JSON, byte for byte what was hashed
    at        TEXT    NOT NULL,
    prev_hash BLOB,                          -- NULL for seq 1
    hash      BLOB    NOT NULL,              -- sha256(prev_hash || seq || type || data)
    PRIMARY KEY (match_id, seq)              -- a lost race to append clashes here
) WITHOUT ROWID;

-- The log is append-only: these triggers make an UPDATE or DELETE of an event fail inside
-- SQLite itself, whoever issues it. (Tampering on purpose, as the tests do, means dropping them
-- first; the hash chain still catches what was changed.)
-- +goose StatementBegin
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed');
END;
-- +goose StatementEnd

CREATE TABLE idempotency_keys (
    match_id    TEXT    NOT NULL REFERENCES matches (id),
    key         TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    fingerprint TEXT    NOT NULL,
    first_seq   INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, key)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE idempotency_keys;
DROP TRIGGER events_no_delete;
DROP TRIGGER events_no_update;
DROP TABLE events;
DROP INDEX seats_name_match;
DROP TABLE seats;
DROP INDEX matches_status_created_id;
DROP INDEX matches_created_id;
DROP TABLE matches;
