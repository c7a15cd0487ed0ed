-- Standing and look-alike names (docs/ratings.md, "Standing"; docs/design.md, "Players").
--
-- player_skeletons: each player's name skeleton (UTS #39, names.Skeleton), unique, so that
-- "Bob" and "Вob" (Cyrillic В) are one name as "Bob" and "bob" are under players.name_key. It
-- is a table of its own rather than a column of players: an index built on players now would
-- make PostgreSQL count its rows, and plan a new database's key lookups as scans. SQL cannot
-- compute a skeleton: the store fills the table in Go right after migrating, for every player
-- it does not hold yet, oldest first (sqlrow.BackfillNameSkeletons). A player whose name
-- looks like an older player's keeps its name and its key, with a NULL skeleton (NULLs do not
-- clash under a unique index); the older player's skeleton keeps every new look-alike out.
-- The bots' skeletons are written here, so that no look-alike of a bot can be taken between
-- the migration and the backfill.
--
-- ratings.established_matches counts a player's rated matches of the format against
-- opponents who were established when they met (bots, or players not provisional then), and
-- rating_changes.against_established says whether one match counted. Both are derived from
-- the logs like every rating figure, so the projection is started again from the logs: its
-- tables are emptied and every rated match that ended is queued, to be rated again, in order,
-- by the server's projection (or `allfives ratings --rebuild`). The Down half does the same for
-- the rules before it.

-- +goose Up
CREATE TABLE player_skeletons (
    player_id TEXT NOT NULL PRIMARY KEY REFERENCES players (id),
    skeleton  TEXT                   -- NULL: a name like an older player's, kept from before
) WITHOUT ROWID;
CREATE UNIQUE INDEX player_skeletons_skeleton ON player_skeletons (skeleton);
INSERT INTO player_skeletons (player_id, skeleton) SELECT id, CASE id
    WHEN 'bot-random' THEN 'bot-randorn' WHEN 'bot-greedy' THEN 'bot-greedy'
    WHEN 'bot-pimc' THEN 'bot-pirnc' WHEN 'bot-expert' THEN 'bot-expert' END
FROM players WHERE id IN ('bot-random', 'bot-greedy', 'bot-pimc', 'bot-expert');

ALTER TABLE ratings ADD COLUMN established_matches INTEGER NOT NULL DEFAULT 0 CHECK (established_matches >= 0);
ALTER TABLE rating_changes ADD COLUMN against_established INTEGER NOT NULL DEFAULT 0 CHECK (against_established IN (0, 1));
DELETE FROM rating_changes;
DELETE FROM ratings;
INSERT OR IGNORE INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND json_extract(c.data, '$.rated') = 1;

-- +goose Down
DELETE FROM rating_changes;
DELETE FROM ratings;
INSERT OR IGNORE INTO rating_queue (match_id, ended_at, end_seq)
SELECT e.match_id, e.at, e.seq FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
WHERE e.type = 'match.ended' AND json_extract(c.data, '$.rated') = 1;
ALTER TABLE rating_changes DROP COLUMN against_established;
ALTER TABLE ratings DROP COLUMN established_matches;
DROP INDEX player_skeletons_skeleton;
DROP TABLE player_skeletons;
