-- The eight levels as players: the same rows as sqlite/00015_bot_levels.sql, where they are
-- explained.

-- +goose Up
INSERT INTO players (id, name, name_key, key_hash, created_at, key_rotated_at) VALUES
    ('bot-level-1', 'bot-level-1', 'bot-level-1', decode('0000000000000000000000000000000000000000000000000000000000000005', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-2', 'bot-level-2', 'bot-level-2', decode('0000000000000000000000000000000000000000000000000000000000000006', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-3', 'bot-level-3', 'bot-level-3', decode('0000000000000000000000000000000000000000000000000000000000000007', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-4', 'bot-level-4', 'bot-level-4', decode('0000000000000000000000000000000000000000000000000000000000000008', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-5', 'bot-level-5', 'bot-level-5', decode('0000000000000000000000000000000000000000000000000000000000000009', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-6', 'bot-level-6', 'bot-level-6', decode('000000000000000000000000000000000000000000000000000000000000000a', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-7', 'bot-level-7', 'bot-level-7', decode('000000000000000000000000000000000000000000000000000000000000000b', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z'),
    ('bot-level-8', 'bot-level-8', 'bot-level-8', decode('000000000000000000000000000000000000000000000000000000000000000c', 'hex'), '2026-12-02T00:00:00.000000000Z', '2026-12-02T00:00:00.000000000Z')
ON CONFLICT DO NOTHING;
INSERT INTO player_skeletons (player_id, skeleton) VALUES
    ('bot-level-1', 'bot-level-l'),
    ('bot-level-2', 'bot-level-2'),
    ('bot-level-3', 'bot-level-3'),
    ('bot-level-4', 'bot-level-4'),
    ('bot-level-5', 'bot-level-5'),
    ('bot-level-6', 'bot-level-6'),
    ('bot-level-7', 'bot-level-7'),
    ('bot-level-8', 'bot-level-8')
ON CONFLICT DO NOTHING;

-- +goose Down
DELETE FROM player_skeletons WHERE player_id IN (SELECT id FROM players WHERE id IN ('bot-level-1', 'bot-level-2', 'bot-level-3', 'bot-level-4', 'bot-level-5', 'bot-level-6', 'bot-level-7', 'bot-level-8')
    AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = players.id));
DELETE FROM players WHERE id IN ('bot-level-1', 'bot-level-2', 'bot-level-3', 'bot-level-4', 'bot-level-5', 'bot-level-6', 'bot-level-7', 'bot-level-8')
    AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = players.id);
