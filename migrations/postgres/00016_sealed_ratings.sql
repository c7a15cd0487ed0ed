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
DECLARE
    v_commitment TEXT COLLATE "C";
    v_rated BOOLEAN;
    v_revealed_at TEXT COLLATE "C";
BEGIN
    SELECT e.data::jsonb ->> 'commitment', (e.data::jsonb -> 'rated') = 'true'::jsonb INTO v_commitment, v_rated
    FROM events e WHERE e.match_id = NEW.match_id AND e.seq = 1;
    IF v_rated IS NOT TRUE THEN
        RETURN NULL;
    END IF;
    -- FOR SHARE: a reveal committing meanwhile either waits for this transaction, and then
    -- moves this row up to its time, or is waited for, and then read here.
    SELECT s.revealed_at INTO v_revealed_at FROM tournament_seals s
    WHERE s.commitment = v_commitment AND s.revealed FOR SHARE;
    INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
    VALUES (NEW.match_id, CASE WHEN v_revealed_at > NEW.at THEN v_revealed_at ELSE NEW.at END, NEW.seq, v_commitment);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_queue;
INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
SELECT e.match_id, CASE WHEN s.revealed_at > e.at THEN s.revealed_at ELSE e.at END, e.seq, c.data::jsonb ->> 'commitment'
FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
    LEFT JOIN tournament_seals s ON s.commitment = c.data::jsonb ->> 'commitment' AND s.revealed
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
