-- A match of a duplicate round is rated when its round ends (docs/ratings.md, "The
-- projection"; docs/tournaments.md, "Sealed matches"): until then its result shows nowhere,
-- and its key in the projection's order is the later of its own end and its round's end.
--
-- rating_queue.commitment is the queued match's commitment, from its match.created, which the
-- trigger now copies. The projection takes a queued match only once no sealed round holds
-- that commitment (a seal not yet revealed), so such a row waits in the queue.
-- tournament_seals.revealed_at is when the round's seed was revealed (its round.ended, or the
-- tournament.cancelled that cut the round short), in the events' time form, written in the
-- transaction that reveals it; that transaction also moves the ended_at of the round's queued
-- matches up to it, and a match that ends after its round's seed was revealed is queued at
-- that time at the earliest, so the queue's order (ended_at, match_id) is the key's. Here
-- revealed_at is read back from each revealed round's log.
--
-- The projection starts again from the logs, as in 00012: its tables are emptied and every
-- rated match that ended is queued, so that the matches of duplicate rounds that ended
-- before this migration are rated again at their round's end, in order, and the live table
-- equals `allfives ratings --rebuild`. The Down half does the same for the rule before it.

-- +goose Up
ALTER TABLE rating_queue ADD COLUMN commitment TEXT;
ALTER TABLE tournament_seals ADD COLUMN revealed_at TEXT;
UPDATE tournament_seals SET revealed_at = (
    SELECT strftime('%Y-%m-%dT%H:%M:%S', e.at / 1000000000, 'unixepoch') || '.' || substr('000000000' || (e.at % 1000000000), -9) || 'Z'
    FROM tournament_events e
    WHERE e.tournament_id = tournament_seals.tournament_id
      AND ((e.type = 'round.ended' AND json_extract(e.data, '$.round') = tournament_seals.round)
        OR (e.type = 'tournament.cancelled' AND json_extract(e.data, '$.seed') IS NOT NULL))
    ORDER BY e.seq LIMIT 1)
WHERE revealed = 1;

DROP TRIGGER events_rating_queue;
-- +goose StatementBegin
CREATE TRIGGER events_rating_queue AFTER INSERT ON events
WHEN NEW.type = 'match.ended'
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
    SELECT NEW.match_id, CASE WHEN s.revealed_at > NEW.at THEN s.revealed_at ELSE NEW.at END, NEW.seq,
        json_extract(e.data, '$.commitment')
    FROM events e LEFT JOIN tournament_seals s ON s.commitment = json_extract(e.data, '$.commitment') AND s.revealed = 1
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND json_extract(e.data, '$.rated') = 1;
END;
-- +goose StatementEnd

DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_queue;
INSERT INTO rating_queue (match_id, ended_at, end_seq, commitment)
SELECT e.match_id, CASE WHEN s.revealed_at > e.at THEN s.revealed_at ELSE e.at END, e.seq, json_extract(c.data, '$.commitment')
FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
    LEFT JOIN tournament_seals s ON s.commitment = json_extract(c.data, '$.commitment') AND s.revealed = 1
WHERE e.type = 'match.ended' AND json_extract(c.data, '$.rated') = 1;

-- +goose Down
DROP TRIGGER events_rating_queue;
-- +goose StatementBegin
CREATE TRIGGER events_rating_queue AFTER INSERT ON events
WHEN NEW.type = 'match.ended'
BEGIN
    INSERT INTO rating_queue (match_id, ended_at, end_seq)
    SELECT NEW.match_id, NEW.at, NEW.seq FROM events e
    WHERE e.match_id = NEW.match_id AND e.seq = 1 AND json_extract(e.data, '$.rated') = 1;
END;
-- +goose StatementEnd
DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_queue;
ALTER TABLE tournament_seals DROP COLUMN revealed_at;
ALTER TABLE rating_queue DROP COLUMN commitment;
INSERT INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND json_extract(c.data, '$.rated') = 1;
