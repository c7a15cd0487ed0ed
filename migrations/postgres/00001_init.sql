-- The first schema of the All Fives store on PostgreSQL: the same tables, keys and guarantees
-- as sqlite/00001_init.sql (docs/design.md, "Events").
--
-- Times are TEXT in one fixed-width UTC form (2006-01-02T15:04:05.000000000Z): timestamptz
-- keeps only microseconds, and the store keeps the nanosecond instant it was given. Text that
-- is compared or sorted (ids, times) is COLLATE "C", byte order, so that history pages in the
-- same order on every server whatever the database's locale. Hashes are 32-byte BYTEA; event
-- data is the JSON of the payload, exactly the bytes hashed (TEXT, not JSONB, which would
-- reorder it). Every table's key starts with the match id, except matches, keyed by id.

-- +goose Up
CREATE TABLE matches (
    id          TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    seed        TEXT    NOT NULL,            -- hex; secret until match.ended reveals it
    status      TEXT    NOT NULL CHECK (status IN ('in_progress', 'finished')),
    players     TEXT    NOT NULL,            -- JSON [{seat, name, kind, bot?}]
    scores      TEXT    NOT NULL,            -- JSON [per side]
    winner_side INTEGER,                     -- NULL until finished
    hands       INTEGER NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    created_at  TEXT COLLATE "C" NOT NULL,
    updated_at  TEXT    NOT NULL
);

-- History is newest first, keyset-paged on (created_at, id); the status filter walks the
-- same order within one status.
CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);

CREATE TABLE seats (
    match_id   TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    bot        TEXT    NOT NULL DEFAULT '',
    token_hash BYTEA,                        -- SHA-256 of the seat token; NULL for bots
    PRIMARY KEY (match_id, seat)
);

-- The player filter of the history: exact name to the matches it played in.
CREATE INDEX seats_name_match ON seats (name, match_id);

CREATE TABLE events (
    match_id  TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    type      TEXT    NOT NULL,
    data      TEXT    NOT NULL,              -- the payload JSON, byte for byte what was hashed
    at        TEXT    NOT NULL,
    prev_hash BYTEA,                         -- NULL for seq 1
    hash      BYTEA   NOT NULL,              -- sha256(prev_hash || seq || type || data)
    PRIMARY KEY (match_id, seq)              -- a lost race to append clashes here
);

-- The log is append-only: these triggers make an UPDATE, DELETE or TRUNCATE of events fail
-- inside PostgreSQL itself, whoever issues it. (Tampering on purpose, as the tests do, means
-- dropping them first; the hash chain still catches what was changed.)
-- +goose StatementBegin
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

CREATE TABLE idempotency_keys (
    match_id    TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
    key         TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    fingerprint TEXT    NOT NULL,
    first_seq   INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, key)
);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TRIGGER events_no_truncate ON events;
DROP TRIGGER events_no_update_delete ON events;
DROP FUNCTION events_append_only();
DROP TABLE events;
DROP INDEX seats_name_match;
DROP TABLE seats;
DROP INDEX matches_status_created_id;
DROP INDEX matches_created_id;
DROP TABLE matches;
