-- Seeks of Play now: the same seeks table as sqlite/00013_seeks.sql (docs/matchmaking.md).
--
-- seeks: status is searching, pairing (claimed for match_id, being created), matched,
-- cancelled (reason: cancelled by its player, or key_rotated) or expired. rating is the
-- player's displayed rating in the format when the seek was made. Times are Unix nanoseconds;
-- ended_at is 0 while it searches, and for a pairing seek the time of its claim. match_id and
-- seat are '' and -1 until claimed. seeks_one keeps one live seek (searching or pairing) per
-- player and format: a second is ALREADY_SEEKING. A claim updates its rows only WHERE status =
-- 'searching', so of two claims of one seek (row locks, READ COMMITTED) one changes it.

-- +goose Up
CREATE TABLE seeks (
    id           TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    player_id    TEXT COLLATE "C" NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('2p', '3p', '4p', '2v2')),
    rated        BOOLEAN NOT NULL,
    turn_seconds INTEGER NOT NULL,
    target       INTEGER NOT NULL DEFAULT 0,
    rating       DOUBLE PRECISION NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('searching', 'pairing', 'matched', 'cancelled', 'expired')),
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    ended_at     BIGINT  NOT NULL DEFAULT 0,
    match_id     TEXT COLLATE "C" NOT NULL DEFAULT '',
    seat         INTEGER NOT NULL DEFAULT -1,
    reason       TEXT    NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX seeks_one ON seeks (player_id, format) WHERE status IN ('searching', 'pairing');
CREATE INDEX seeks_live ON seeks (status, created_at) WHERE status IN ('searching', 'pairing');
CREATE INDEX seeks_match ON seeks (match_id) WHERE match_id <> '';

-- +goose Down
DROP INDEX seeks_match;
DROP INDEX seeks_live;
DROP INDEX seeks_one;
DROP TABLE seeks;
