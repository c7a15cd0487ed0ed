-- Idempotency keys per seat, and the seeded flag in the read model (docs/design.md,
-- "Persistence"; docs/api.md, "Idempotency").
--
-- idempotency_keys: keyed by (match_id, seat, key) instead of (match_id, key), so that one
-- seat's key neither blocks nor reveals another seat's. Every record keeps the seat it was
-- stored with. matches: seeded says the creator chose the seed; a match stored before this
-- migration has it in its match.created event, and a match.created without it was not seeded.
--
-- SQLite cannot change a primary key in place, so idempotency_keys is rebuilt the way
-- https://www.sqlite.org/lang_altertable.html (section 7) describes, as 00002 rebuilds its
-- tables: foreign keys off, a new table, copy, drop, rename, in one transaction (NO
-- TRANSACTION and an explicit BEGIN, since PRAGMA foreign_keys is a no-op inside one). A new
-- column with a constant default needs no rebuild.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE idempotency_keys_v3 (
    match_id    TEXT    NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    first_seq   INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat, key)
) WITHOUT ROWID;

INSERT INTO idempotency_keys_v3 (match_id, seat, key, fingerprint, first_seq, last_seq, created_at)
SELECT match_id, seat, key, fingerprint, first_seq, last_seq, created_at FROM idempotency_keys;

DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v3 RENAME TO idempotency_keys;

ALTER TABLE matches ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0 CHECK (seeded IN (0, 1));

-- Only seeded matches are rewritten; the default is right for the others. json_extract reads
-- JSON true as 1.
UPDATE matches SET seeded = 1
WHERE (SELECT json_extract(e.data, '$.seeded') FROM events e WHERE e.match_id = matches.id AND e.seq = 1) = 1;

COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE idempotency_keys_v2 (
    match_id    TEXT    NOT NULL REFERENCES matches (id),
    key         TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    fingerprint TEXT    NOT NULL,
    first_seq   INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, key)
) WITHOUT ROWID;
-- Fails when two seats of one match used the same key, as it must: the old schema cannot
-- hold both records. It comes first, so that it fails before anything is changed.
INSERT INTO idempotency_keys_v2 (match_id, key, seat, fingerprint, first_seq, last_seq, created_at)
SELECT match_id, key, seat, fingerprint, first_seq, last_seq, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v2 RENAME TO idempotency_keys;

ALTER TABLE matches DROP COLUMN seeded;

COMMIT;
PRAGMA foreign_keys = ON;
