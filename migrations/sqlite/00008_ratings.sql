-- Ratings and leaderboards (docs/ratings.md, "The projection"): derived data, kept apart from
-- the log, from which `allfives ratings --rebuild` computes them again figure for figure.
--
-- rating_queue: the rated matches that ended and are not rated yet, filled by a trigger on
-- events in the transaction that stores a match.ended, so no commit path needs to know of it
-- and no end is missed: a crash between a match's end and its rating leaves the row here.
-- The projection takes it out in the transaction that writes the match's rating rows. A
-- match is rated when its match.created says "rated": true (json_extract reads true as 1).
--
-- rating_changes: one row per player of each rated match, with the rating before and after;
-- its last (ended_at, match_id) is the projection's cursor. ratings: each player's current
-- rating per format; ranked is 1 when the rating is no longer provisional (docs/ratings.md,
-- "Provisional"), which the leaderboard's partial index walks, best first.
--
-- The bots are players with fixed ids, so their ratings have a profile and a name. They
-- have no key: each key_hash is a value no key hashes to that anyone knows (finding one
-- would break SHA-256). Times are TEXT in the store's one UTC form.

-- +goose Up
CREATE TABLE rating_queue (
    match_id TEXT    NOT NULL PRIMARY KEY REFERENCES matches (id),
    ended_at TEXT    NOT NULL,   -- the match.ended event's time
    end_seq  INTEGER NOT NULL    -- its seq: the log's last
) WITHOUT ROWID;
CREATE INDEX rating_queue_order ON rating_queue (ended_at, match_id);

-- +goose StatementBegin
CREATE TRIGGER events_rating_queue AFTER INSERT ON events
WHEN NEW.type = 'match.ended'
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq)
    SELECT NEW.match_id, NEW.at, NEW.seq FROM events e
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND json_extract(e.data, '$.rated') = 1;
END;
-- +goose StatementEnd

CREATE TABLE rating_changes (
    match_id     TEXT    NOT NULL REFERENCES matches (id),
    player_id    TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('2p', '3p', '4p', '2v2')),
    ended_at     TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, player_id)
) WITHOUT ROWID;
-- A player's history, newest first; and the projection's order, for its cursor and rewinds.
CREATE INDEX rating_changes_player ON rating_changes (player_id, ended_at, match_id);
CREATE INDEX rating_changes_order ON rating_changes (ended_at, match_id);

CREATE TABLE ratings (
    player_id TEXT    NOT NULL,
    format    TEXT    NOT NULL CHECK (format IN ('2p', '3p', '4p', '2v2')),
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    rating    REAL    NOT NULL,  -- mu - 3 sigma, as the code computes it
    matches   INTEGER NOT NULL CHECK (matches >= 1),
    wins      INTEGER NOT NULL CHECK (wins >= 0),
    ranked    INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    PRIMARY KEY (player_id, format)
) WITHOUT ROWID;
-- The leaderboard: ranked players of a format, walked from the highest (rating, player_id).
CREATE INDEX ratings_leaderboard ON ratings (format, rating, player_id) WHERE ranked = 1;

INSERT OR IGNORE INTO players (id, name, name_key, key_hash, created_at, key_rotated_at) VALUES
    ('bot-random', 'bot-random', 'bot-random', x'0000000000000000000000000000000000000000000000000000000000000001', '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-greedy', 'bot-greedy', 'bot-greedy', x'0000000000000000000000000000000000000000000000000000000000000002', '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-pimc', 'bot-pimc', 'bot-pimc', x'0000000000000000000000000000000000000000000000000000000000000003', '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-expert', 'bot-expert', 'bot-expert', x'0000000000000000000000000000000000000000000000000000000000000004', '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z');

-- +goose Down
DELETE FROM players WHERE id IN ('bot-random', 'bot-greedy', 'bot-pimc', 'bot-expert');
DROP INDEX ratings_leaderboard;
DROP TABLE ratings;
DROP INDEX rating_changes_order;
DROP INDEX rating_changes_player;
DROP TABLE rating_changes;
DROP TRIGGER events_rating_queue;
DROP INDEX rating_queue_order;
DROP TABLE rating_queue;
