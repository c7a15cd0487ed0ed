-- The eight levels as players (docs/bots.md, "Levels"; docs/ratings.md, "Who is rated"): a
-- rated match's seat of strategy level-N is the player bot-level-N, rated like bot-random and
-- the other bots of 00008_ratings.sql, with a fixed id, no key (each key_hash a value no key
-- hashes to that anyone knows) and its name's skeleton (names.Skeleton; "bot-level-1" is
-- "bot-level-l", since a 1 looks like an l) written here rather than by the store's backfill,
-- as 00012 does for the first four bots, so that no look-alike can be taken in between.
-- Every bot starts at the model's default rating, as the first four did: a rating is derived
-- from the logs alone (`allfives ratings --rebuild` computes it again), so no figure from
-- the ladder in docs/bots.md is written here.
--
-- The Down half removes the levels' players that no seat is bound to; one that played a rated
-- match stays, since its seats refer to it.

-- +goose Up
INSERT OR IGNORE INTO players (id, name, name_key, key_hash, created_at, key_rotated_at) VALUES
    ('bot-level-1', 'bot-level-1', 'bot-level-1', x'0000000000000000000000000000000000000000000000000000000000000005', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-2', 'bot-level-2', 'bot-level-2', x'0000000000000000000000000000000000000000000000000000000000000006', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-3', 'bot-level-3', 'bot-level-3', x'0000000000000000000000000000000000000000000000000000000000000007', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-4', 'bot-level-4', 'bot-level-4', x'0000000000000000000000000000000000000000000000000000000000000008', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-5', 'bot-level-5', 'bot-level-5', x'0000000000000000000000000000000000000000000000000000000000000009', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-6', 'bot-level-6', 'bot-level-6', x'000000000000000000000000000000000000000000000000000000000000000a', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-7', 'bot-level-7', 'bot-level-7', x'000000000000000000000000000000000000000000000000000000000000000b', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-8', 'bot-level-8', 'bot-level-8', x'000000000000000000000000000000000000000000000000000000000000000c', '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z');
INSERT OR IGNORE INTO player_skeletons (player_id, skeleton) VALUES
    ('bot-level-1', 'bot-level-l'),
    ('bot-level-2', 'bot-level-2'),
    ('bot-level-3', 'bot-level-3'),
    ('bot-level-4', 'bot-level-4'),
    ('bot-level-5', 'bot-level-5'),
    ('bot-level-6', 'bot-level-6'),
    ('bot-level-7', 'bot-level-7'),
    ('bot-level-8', 'bot-level-8');

-- +goose Down
DELETE FROM player_skeletons WHERE player_id IN (SELECT id FROM players WHERE id IN ('bot-level-1', 'bot-level-2', 'bot-level-3', 'bot-level-4', 'bot-level-5', 'bot-level-6', 'bot-level-7', 'bot-level-8')
    AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = players.id));
DELETE FROM players WHERE id IN ('bot-level-1', 'bot-level-2', 'bot-level-3', 'bot-level-4', 'bot-level-5', 'bot-level-6', 'bot-level-7', 'bot-level-8')
    AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = players.id);
