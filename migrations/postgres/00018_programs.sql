-- A player may be a program (docs/engine.md, docs/api-players.md): created with
-- {"name", "program": true}, marked so on its profile, its seats, its ratings and the
-- leaderboards, which a client may filter to humans or programs (bots count as programs).
-- Every player made before is a human, but the bots' players (bot-random, bot-level-3, ...),
-- which are programs; a migration that adds a bot's player marks it so.

-- +goose Up
ALTER TABLE players ADD COLUMN program BOOLEAN NOT NULL DEFAULT false;
UPDATE players SET program = true WHERE id LIKE 'bot-%';

-- +goose Down
ALTER TABLE players DROP COLUMN program;
