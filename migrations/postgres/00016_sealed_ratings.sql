-- A match of a duplicate round is rated when its round ends: the same end result as
-- sqlite/00016_sealed_ratings.sql, where each column and the restart of the ratings'
-- projection are explained. Times are TEXT in the events' one UTC form, compared byte for
-- byte (COLLATE "C"), as rating_queue.ended_at is.

-- +goose Up
ALTER TABLE rating_queue ADD COLUMN commitment TEXT COLLATE "C";
ALTER TABLE tournament_seals ADD COLUMN revealed_at TEXT COLLATE "C";
UPDATE tournament_seals s SET revealed_at = (
    SELECT to_char(to_timestamp(e.at / 1000000000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad((e.at % 1000000000)::text, 9, '0') || 'Z'
    FROM tournament_events e
    WHERE e.tournament_id = s.tournament_id
      AND ((e.type = 'round.ended' AND (e.data::jsonb ->> 'round')::int = s.round)
        OR (e.type = 'tournament.cancelled' AND (e.data::jsonb ->> 'seed') IS NOT NULL))
    ORDER BY e.seq LIMIT 1)
WHERE s.revealed;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION events_rating_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
    SELECT NEW.match_id, NEW.at, NEW.seq, e.data::jsonb ->> 'commitment' FROM events e
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND (e.data::jsonb -> 'rated') = 'true'::jsonb;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_queue;
INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
SELECT e.match_id, e.at, e.seq, c.data::jsonb ->> 'commitment' FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND (c.data::jsonb -> 'rated') = 'true'::jsonb;

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION events_rating_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq)
    SELECT NEW.match_id, NEW.at, NEW.seq FROM events e
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND (e.data::jsonb -> 'rated') = 'true'::jsonb;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_queue;
ALTER TABLE tournament_seals DROP COLUMN revealed_at;
ALTER TABLE rating_queue DROP COLUMN commitment;
INSERT INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND (c.data::jsonb -> 'rated') = 'true'::jsonb;
