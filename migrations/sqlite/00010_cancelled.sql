-- A match cancelled before it started (docs/design.md, "Consent and resignation"): status
-- gains 'cancelled', which a decline, a withdrawal or an offer that expired sets.
--
-- SQLite cannot widen a CHECK constraint in place, so matches is rebuilt as 00002 rebuilt it
-- (https://www.sqlite.org/lang_altertable.html, section 7): foreign keys off, a new table,
-- copy, drop, rename, in one transaction. The triggers of 00009 that read matches from seats
-- are dropped first and made again after, since a rename refuses a schema whose triggers name
-- a table that is gone; matches' own indexes and trigger go with the old table and are made
-- again as they were.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

DROP TRIGGER seats_status_on_insert;
DROP TRIGGER seats_status_on_bind;

CREATE TABLE matches_v10 (
    id            TEXT    NOT NULL PRIMARY KEY,
    seed          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('waiting', 'in_progress', 'finished', 'expired', 'cancelled')),
    players       TEXT    NOT NULL,
    scores        TEXT    NOT NULL,
    winner_side   INTEGER,
    hands         INTEGER NOT NULL,
    version       INTEGER NOT NULL CHECK (version >= 1),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    listed        INTEGER NOT NULL DEFAULT 0 CHECK (listed IN (0, 1)),
    open_seats    TEXT    NOT NULL DEFAULT '[]',  -- JSON [seat]: the seats open to anyone
    target        INTEGER NOT NULL DEFAULT 0,
    turn_seconds  INTEGER NOT NULL DEFAULT 0,      -- 0: no clock
    turn          INTEGER,                         -- the seat to act; NULL when none
    turn_deadline TEXT,                            -- when that seat must have acted, or a waiting offer is cancelled
    seeded        INTEGER NOT NULL DEFAULT 0 CHECK (seeded IN (0, 1)),
    next_match_id TEXT,
    rematch_of    TEXT
);

INSERT INTO matches_v10 (id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at,
    listed, open_seats, target, turn_seconds, turn, turn_deadline, seeded, next_match_id, rematch_of)
SELECT id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at,
    listed, open_seats, target, turn_seconds, turn, turn_deadline, seeded, next_match_id, rematch_of
FROM matches;

DROP TABLE matches;
ALTER TABLE matches_v10 RENAME TO matches;

CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);
CREATE INDEX matches_turn_deadline ON matches (turn_deadline) WHERE turn_deadline IS NOT NULL;
CREATE INDEX matches_waiting_updated ON matches (updated_at) WHERE status = 'waiting';
CREATE INDEX matches_lobby ON matches (created_at, id) WHERE status = 'waiting' AND listed = 1;

-- +goose StatementBegin
CREATE TRIGGER matches_status_to_seats AFTER UPDATE OF status ON matches
WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE seats SET match_status = NEW.status WHERE match_id = NEW.id AND player_id IS NOT NULL;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_insert AFTER INSERT ON seats
WHEN NEW.player_id IS NOT NULL
BEGIN
    UPDATE seats SET match_status = (SELECT status FROM matches WHERE id = NEW.match_id)
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_bind AFTER UPDATE OF player_id ON seats
BEGIN
    UPDATE seats SET match_status = CASE WHEN NEW.player_id IS NULL THEN NULL
        ELSE (SELECT status FROM matches WHERE id = NEW.match_id) END
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

DROP TRIGGER seats_status_on_insert;
DROP TRIGGER seats_status_on_bind;

CREATE TABLE matches_v9 (
    id            TEXT    NOT NULL PRIMARY KEY,
    seed          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('waiting', 'in_progress', 'finished', 'expired')),
    players       TEXT    NOT NULL,
    scores        TEXT    NOT NULL,
    winner_side   INTEGER,
    hands         INTEGER NOT NULL,
    version       INTEGER NOT NULL CHECK (version >= 1),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    listed        INTEGER NOT NULL DEFAULT 0 CHECK (listed IN (0, 1)),
    open_seats    TEXT    NOT NULL DEFAULT '[]',
    target        INTEGER NOT NULL DEFAULT 0,
    turn_seconds  INTEGER NOT NULL DEFAULT 0,
    turn          INTEGER,
    turn_deadline TEXT,
    seeded        INTEGER NOT NULL DEFAULT 0 CHECK (seeded IN (0, 1)),
    next_match_id TEXT,
    rematch_of    TEXT
);

-- Fails on a cancelled match, as it must: the old schema cannot hold one.
INSERT INTO matches_v9 (id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at,
    listed, open_seats, target, turn_seconds, turn, turn_deadline, seeded, next_match_id, rematch_of)
SELECT id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at,
    listed, open_seats, target, turn_seconds, turn, turn_deadline, seeded, next_match_id, rematch_of
FROM matches;

DROP TABLE matches;
ALTER TABLE matches_v9 RENAME TO matches;

CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);
CREATE INDEX matches_turn_deadline ON matches (turn_deadline) WHERE turn_deadline IS NOT NULL;
CREATE INDEX matches_waiting_updated ON matches (updated_at) WHERE status = 'waiting';
CREATE INDEX matches_lobby ON matches (created_at, id) WHERE status = 'waiting' AND listed = 1;

-- +goose StatementBegin
CREATE TRIGGER matches_status_to_seats AFTER UPDATE OF status ON matches
WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE seats SET match_status = NEW.status WHERE match_id = NEW.id AND player_id IS NOT NULL;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_insert AFTER INSERT ON seats
WHEN NEW.player_id IS NOT NULL
BEGIN
    UPDATE seats SET match_status = (SELECT status FROM matches WHERE id = NEW.match_id)
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_bind AFTER UPDATE OF player_id ON seats
BEGIN
    UPDATE seats SET match_status = CASE WHEN NEW.player_id IS NULL THEN NULL
        ELSE (SELECT status FROM matches WHERE id = NEW.match_id) END
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

COMMIT;
PRAGMA foreign_keys = ON;
