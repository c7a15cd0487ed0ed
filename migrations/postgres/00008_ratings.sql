-- Ratings and leaderboards: the same end result as sqlite/00008_ratings.sql (docs/ratings.md,
-- "The projection"), where each table and the trigger are explained. Compared text is
-- COLLATE "C", as in 00001; mu, sigma and rating are float8, which keeps the float64 the
-- code computed bit for bit. The trigger's function reads match.created's "rated" as JSON
-- (the stored TEXT is left as it was hashed).

-- +goose Up
CREATE TABLE rating_queue (
    match_id TEXT COLLATE "C" NOT NULL PRIMARY KEY REFERENCES matches (id),
    ended_at TEXT COLLATE "C" NOT NULL,
    end_seq  INTEGER NOT NULL
);
CREATE INDEX rating_queue_order ON rating_queue (ended_at, match_id);

-- +goose StatementBegin
CREATE FUNCTION events_rating_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq)
    SELECT NEW.match_id, NEW.at, NEW.seq FROM events e
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND (e.data::jsonb -> 'rated') = 'true'::jsonb;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER events_rating_queue AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.type = 'match.ended') EXECUTE FUNCTION events_rating_queue();

CREATE TABLE rating_changes (
    match_id     TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
    player_id    TEXT COLLATE "C" NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('2p', '3p', '4p', '2v2')),
    ended_at     TEXT COLLATE "C" NOT NULL,
    seat         INTEGER NOT NULL,
    won          BOOLEAN NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
CREATE INDEX rating_changes_player ON rating_changes (player_id, ended_at, match_id);
CREATE INDEX rating_changes_order ON rating_changes (ended_at, match_id);

CREATE TABLE ratings (
    player_id TEXT COLLATE "C" NOT NULL,
    format    TEXT COLLATE "C" NOT NULL CHECK (format IN ('2p', '3p', '4p', '2v2')),
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    matches   INTEGER NOT NULL CHECK (matches >= 1),
    wins      INTEGER NOT NULL CHECK (wins >= 0),
    ranked    BOOLEAN NOT NULL,
    PRIMARY KEY (player_id, format)
);
CREATE INDEX ratings_leaderboard ON ratings (format, rating, player_id) WHERE ranked;

INSERT INTO players (id, name, name_key, key_hash, created_at, key_rotated_at) VALUES
    ('bot-random', 'bot-random', 'bot-random', decode('0000000000000000000000000000000000000000000000000000000000000001', 'hex'), '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-greedy', 'bot-greedy', 'bot-greedy', decode('0000000000000000000000000000000000000000000000000000000000000002', 'hex'), '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-pimc', 'bot-pimc', 'bot-pimc', decode('0000000000000000000000000000000000000000000000000000000000000003', 'hex'), '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z'),
    ('bot-expert', 'bot-expert', 'bot-expert', decode('0000000000000000000000000000000000000000000000000000000000000004', 'hex'), '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:00.000000000Z')
ON CONFLICT DO NOTHING;

-- +goose Down
DELETE FROM players WHERE id IN ('bot-random', 'bot-greedy', 'bot-pimc', 'bot-expert');
DROP TABLE ratings;
DROP TABLE rating_changes;
DROP TRIGGER events_rating_queue ON events;
DROP FUNCTION events_rating_queue();
DROP TABLE rating_queue;
