-- Standing and look-alike names: the same end result as sqlite/00012_standing_and_skeletons.sql,
-- where each column and the restart of the ratings' projection are explained. The skeleton is
-- compared byte for byte (COLLATE "C"), as the name key is.

-- +goose Up
CREATE TABLE player_skeletons (
    player_id TEXT COLLATE "C" NOT NULL PRIMARY KEY REFERENCES players (id),
    skeleton  TEXT COLLATE "C"
);
CREATE UNIQUE INDEX player_skeletons_skeleton ON player_skeletons (skeleton);
INSERT INTO player_skeletons (player_id, skeleton) SELECT id, CASE id
    WHEN 'bot-random' THEN 'bot-randorn' WHEN 'bot-greedy' THEN 'bot-greedy'
    WHEN 'bot-pimc' THEN 'bot-pirnc' WHEN 'bot-expert' THEN 'bot-expert' END
FROM players WHERE id IN ('bot-random', 'bot-greedy', 'bot-pimc', 'bot-expert');

ALTER TABLE ratings ADD COLUMN established_matches INTEGER NOT NULL DEFAULT 0 CHECK (established_matches >= 0);
ALTER TABLE rating_changes ADD COLUMN against_established BOOLEAN NOT NULL DEFAULT FALSE;
DELETE FROM rating_changes;
DELETE FROM ratings;
INSERT INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND (c.data::jsonb -> 'rated') = 'true'::jsonb
ON CONFLICT DO NOTHING;

-- +goose Down
DELETE FROM rating_changes;
DELETE FROM ratings;
INSERT INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND (c.data::jsonb -> 'rated') = 'true'::jsonb
ON CONFLICT DO NOTHING;
ALTER TABLE rating_changes DROP COLUMN against_established;
ALTER TABLE ratings DROP COLUMN established_matches;
DROP INDEX player_skeletons_skeleton;
DROP TABLE player_skeletons;
