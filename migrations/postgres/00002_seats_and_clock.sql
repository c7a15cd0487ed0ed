-- Seats, joining and the clock (docs/design.md, "Seats, joining and the clock"): the same end
-- result as sqlite/00002_seats_and_clock.sql.
--
-- matches: status gains 'waiting' and 'expired'; new read-model columns for the lobby and the
-- clock: listed, open_seats (JSON [seat]), target, turn_seconds, turn (NULL: no seat to act)
-- and turn_deadline (NULL: no human on the clock), with the indexes the sweeper and the lobby
-- walk. seats: kind gains 'open'; invite_hash is the SHA-256 of an open seat's invite.
--
-- PostgreSQL changes both tables in place, in the one transaction goose runs this file in.
-- updated_at becomes COLLATE "C" like the other times, since the sweeper now compares it.

-- +goose Up
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('waiting', 'in_progress', 'finished', 'expired'));
ALTER TABLE matches ALTER COLUMN updated_at TYPE TEXT COLLATE "C";
ALTER TABLE matches
    ADD COLUMN listed        BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN open_seats    TEXT    NOT NULL DEFAULT '[]',  -- JSON [seat]; [] once every seat is taken
    ADD COLUMN target        INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN turn_seconds  INTEGER NOT NULL DEFAULT 0,     -- 0: no clock
    ADD COLUMN turn          INTEGER,                        -- the seat to act; NULL when none
    ADD COLUMN turn_deadline TEXT COLLATE "C";               -- when that seat must have acted; NULL: not on the clock

-- The target of a match stored before this migration is in its match.created event.
UPDATE matches SET target = COALESCE(
    (SELECT (e.data::json ->> 'target')::integer FROM events e WHERE e.match_id = matches.id AND e.seq = 1), 0);

-- The seat to act in a match in progress follows from its last event: a play or a pass hands
-- the turn on, a draw keeps it, a deal gives it to the leader.
UPDATE matches SET turn = (
    SELECT CASE e.type
        WHEN 'tile.played' THEN ((e.data::json ->> 'seat')::integer + 1) % json_array_length(matches.players::json)
        WHEN 'turn.passed' THEN ((e.data::json ->> 'seat')::integer + 1) % json_array_length(matches.players::json)
        WHEN 'tile.drawn' THEN (e.data::json ->> 'seat')::integer
        WHEN 'hand.started' THEN (e.data::json ->> 'leader')::integer
    END
    FROM events e WHERE e.match_id = matches.id AND e.seq = matches.version)
WHERE status = 'in_progress';

-- The sweeper: due deadlines, soonest first.
CREATE INDEX matches_turn_deadline ON matches (turn_deadline) WHERE turn_deadline IS NOT NULL;
-- The sweeper: waiting matches by their last event, for expiry.
CREATE INDEX matches_waiting_updated ON matches (updated_at) WHERE status = 'waiting';
-- The lobby: listed waiting matches, newest first.
CREATE INDEX matches_lobby ON matches (created_at, id) WHERE status = 'waiting' AND listed;

ALTER TABLE seats DROP CONSTRAINT seats_kind_check;
ALTER TABLE seats ADD CONSTRAINT seats_kind_check CHECK (kind IN ('human', 'bot', 'open'));
ALTER TABLE seats ADD COLUMN invite_hash BYTEA;  -- SHA-256 of an open seat's invite; NULL otherwise

-- +goose Down
-- Fails on an open seat or a waiting or expired match, as it must: the old schema cannot hold one.
ALTER TABLE seats DROP COLUMN invite_hash;
ALTER TABLE seats DROP CONSTRAINT seats_kind_check;
ALTER TABLE seats ADD CONSTRAINT seats_kind_check CHECK (kind IN ('human', 'bot'));

DROP INDEX matches_lobby;
DROP INDEX matches_waiting_updated;
DROP INDEX matches_turn_deadline;
ALTER TABLE matches
    DROP COLUMN turn_deadline,
    DROP COLUMN turn,
    DROP COLUMN turn_seconds,
    DROP COLUMN target,
    DROP COLUMN open_seats,
    DROP COLUMN listed;
ALTER TABLE matches ALTER COLUMN updated_at TYPE TEXT COLLATE "default";
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN ('in_progress', 'finished'));
