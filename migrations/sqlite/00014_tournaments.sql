-- Tournaments (docs/tournaments.md): each tournament's own hash-chained log, a row beside it
-- for lists and the sweeper, and the secret seeds of duplicate rounds.
--
-- tournaments: the row; status is upcoming, running, finished or cancelled; times in Unix
-- nanoseconds; version is the log's last seq and head_hash its hash (hex).
-- tournament_events: the log, append-only, primary key (tournament_id, seq) like a match's;
-- data is the payload's JSON exactly as hashed; hash = sha256(prev_hash || seq || type || data).
-- tournament_seals: one row per duplicate round, keyed by its commitment (hex SHA-256 of the
-- seed), so that every read of a match dealt from a chosen seed can ask whether it is sealed;
-- revealed turns 1 with the round's end, when the seed enters the log.

-- +goose Up
CREATE TABLE tournaments (
    id         TEXT    NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    organiser  TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    starts_at  INTEGER,
    version    INTEGER NOT NULL CHECK (version >= 1),
    head_hash  TEXT    NOT NULL
) WITHOUT ROWID;
CREATE INDEX tournaments_status ON tournaments (status, created_at);
CREATE INDEX tournaments_organiser ON tournaments (organiser, status);

CREATE TABLE tournament_events (
    tournament_id TEXT    NOT NULL,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    type          TEXT    NOT NULL,
    data          TEXT    NOT NULL,
    at            INTEGER NOT NULL,
    prev_hash     TEXT    NOT NULL,
    hash          TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER tournament_events_no_update BEFORE UPDATE ON tournament_events
BEGIN SELECT RAISE(ABORT, 'tournament events are append-only'); END;
CREATE TRIGGER tournament_events_no_delete BEFORE DELETE ON tournament_events
BEGIN SELECT RAISE(ABORT, 'tournament events are append-only'); END;

CREATE TABLE tournament_seals (
    commitment    TEXT    NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL,
    round         INTEGER NOT NULL,
    seed          BLOB    NOT NULL CHECK (length(seed) = 32),
    revealed      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE UNIQUE INDEX tournament_seals_round ON tournament_seals (tournament_id, round);

-- +goose Down
DROP INDEX tournament_seals_round;
DROP TABLE tournament_seals;
DROP TRIGGER tournament_events_no_delete;
DROP TRIGGER tournament_events_no_update;
DROP TABLE tournament_events;
DROP INDEX tournaments_organiser;
DROP INDEX tournaments_status;
DROP TABLE tournaments;
