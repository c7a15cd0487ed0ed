-- Seats, joining and the clock (docs/design.md, "Seats, joining and the clock").
--
-- matches: status gains 'waiting' and 'expired'; new read-model columns for the lobby and the
-- clock: listed, open_seats (JSON [seat]), target, turn_seconds, turn (NULL: no seat to act)
-- and turn_deadline (NULL: no human on the clock), with an index the sweeper walks.
-- seats: kind gains 'open'; invite_hash is the SHA-256 of an open seat's invite.
--
-- SQLite cannot widen a CHECK constraint in place, so both tables are rebuilt the way
-- https://www.sqlite.org/lang_altertable.html (section 7) describes: foreign keys off, a new
-- table, copy, drop, rename, in one transaction. PRAGMA foreign_keys is a no-op inside a
-- transaction, hence NO TRANSACTION and an explicit BEGIN; the store's writer is a single
-- connection, so every statement here runs on it.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE matches_v2 (
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
    open_seats    TEXT    NOT NULL DEFAULT '[]',  -- JSON [seat]; [] once every seat is taken
    target        INTEGER NOT NULL DEFAULT 0,
    turn_seconds  INTEGER NOT NULL DEFAULT 0,      -- 0: no clock
    turn          INTEGER,                         -- the seat to act; NULL when none
    turn_deadline TEXT                             -- when that seat must have acted; NULL: not on the clock
);

INSERT INTO matches_v2 (id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at, target)
SELECT id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at,
       COALESCE((SELECT json_extract(e.data, '$.target') FROM events e WHERE e.match_id = matches.id AND e.seq = 1), 0)
FROM matches;

DROP TABLE matches;
ALTER TABLE matches_v2 RENAME TO matches;

-- The seat to act in a match in progress follows from its last event: a play or a pass hands
-- the turn on, a draw keeps it, a deal gives it to the leader.
UPDATE matches SET turn = (
    SELECT CASE e.type
        WHEN 'tile.played' THEN (json_extract(e.data, '$.seat') + 1) % json_array_length(matches.players)
        WHEN 'turn.passed' THEN (json_extract(e.data, '$.seat') + 1) % json_array_length(matches.players)
        WHEN 'tile.drawn' THEN json_extract(e.data, '$.seat')
        WHEN 'hand.started' THEN json_extract(e.data, '$.leader')
    END
    FROM events e WHERE e.match_id = matches.id AND e.seq = matches.version)
WHERE status = 'in_progress';

CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);
-- The sweeper: due deadlines, soonest first.
CREATE INDEX matches_turn_deadline ON matches (turn_deadline) WHERE turn_deadline IS NOT NULL;
-- The sweeper: waiting matches by their last event, for expiry.
CREATE INDEX matches_waiting_updated ON matches (updated_at) WHERE status = 'waiting';
-- The lobby: listed waiting matches, newest first.
CREATE INDEX matches_lobby ON matches (created_at, id) WHERE status = 'waiting' AND listed = 1;

CREATE TABLE seats_v2 (
    match_id    TEXT    NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    name        TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'open')),
    bot         TEXT    NOT NULL DEFAULT '',
    token_hash  BLOB,                         -- SHA-256 of the seat token; NULL for bots and open seats
    invite_hash BLOB,                         -- SHA-256 of an open seat's invite; NULL otherwise
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

INSERT INTO seats_v2 (match_id, seat, name, kind, bot, token_hash)
SELECT match_id, seat, name, kind, bot, token_hash FROM seats;

DROP TABLE seats;
ALTER TABLE seats_v2 RENAME TO seats;
CREATE INDEX seats_name_match ON seats (name, match_id);

COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE seats_v1 (
    match_id   TEXT    NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    bot        TEXT    NOT NULL DEFAULT '',
    token_hash BLOB,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
-- Fails on an open seat, as it must: the old schema cannot hold one.
INSERT INTO seats_v1 (match_id, seat, name, kind, bot, token_hash)
SELECT match_id, seat, name, kind, bot, token_hash FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v1 RENAME TO seats;
CREATE INDEX seats_name_match ON seats (name, match_id);

CREATE TABLE matches_v1 (
    id          TEXT    NOT NULL PRIMARY KEY,
    seed        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('in_progress', 'finished')),
    players     TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    winner_side INTEGER,
    hands       INTEGER NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- Fails on a waiting or expired match, as it must.
INSERT INTO matches_v1 SELECT id, seed, status, players, scores, winner_side, hands, version, created_at, updated_at FROM matches;
DROP TABLE matches;
ALTER TABLE matches_v1 RENAME TO matches;
CREATE INDEX matches_created_id ON matches (created_at, id);
CREATE INDEX matches_status_created_id ON matches (status, created_at, id);

COMMIT;
PRAGMA foreign_keys = ON;
