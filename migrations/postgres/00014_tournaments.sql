-- Tournaments (docs/tournaments.md): the same tables as sqlite/00014_tournaments.sql.
--
-- tournaments: the row; status is upcoming, running, finished or cancelled; times in Unix
-- nanoseconds; version is the log's last seq and head_hash its hash (hex).
-- tournament_events: the log, append-only, primary key (tournament_id, seq): of two instances
-- appending at one version, one insert wins and the other conflicts.
-- tournament_seals: the secret seed of each duplicate round, keyed by its commitment;
-- revealed turns true with the round's end.

-- +goose Up
CREATE TABLE tournaments (
    id         TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    organiser  TEXT COLLATE "C" NOT NULL,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL,
    starts_at  BIGINT,
    version    INTEGER NOT NULL CHECK (version >= 1),
    head_hash  TEXT    NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, created_at);
CREATE INDEX tournaments_organiser ON tournaments (organiser, status);

CREATE TABLE tournament_events (
    tournament_id TEXT COLLATE "C" NOT NULL,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    type          TEXT    NOT NULL,
    data          TEXT    NOT NULL,
    at            BIGINT  NOT NULL,
    prev_hash     TEXT    NOT NULL,
    hash          TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
-- +goose StatementBegin
CREATE FUNCTION tournament_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'tournament events are append-only';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER tournament_events_append_only BEFORE UPDATE OR DELETE ON tournament_events
    FOR EACH ROW EXECUTE FUNCTION tournament_events_append_only();

CREATE TABLE tournament_seals (
    commitment    TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    tournament_id TEXT COLLATE "C" NOT NULL,
    round         INTEGER NOT NULL,
    seed          BYTEA   NOT NULL CHECK (length(seed) = 32),
    revealed      BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE UNIQUE INDEX tournament_seals_round ON tournament_seals (tournament_id, round);

-- +goose Down
DROP INDEX tournament_seals_round;
DROP TABLE tournament_seals;
DROP TRIGGER tournament_events_append_only ON tournament_events;
DROP FUNCTION tournament_events_append_only();
DROP TABLE tournament_events;
DROP INDEX tournaments_organiser;
DROP INDEX tournaments_status;
DROP TABLE tournaments;
