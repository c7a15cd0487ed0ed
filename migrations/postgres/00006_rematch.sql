-- Rematch: the same end result as sqlite/00006_rematch.sql (docs/api.md, "Players").
-- next_match_id on a finished match names the match its rematch created; rematch_of on that
-- match names the finished one. Its human seats start without a token hash, each claimed by
-- the old seat's holder on its first call of the rematch.

-- +goose Up
ALTER TABLE matches
    ADD COLUMN next_match_id TEXT COLLATE "C",
    ADD COLUMN rematch_of    TEXT COLLATE "C";

-- +goose Down
ALTER TABLE matches
    DROP COLUMN rematch_of,
    DROP COLUMN next_match_id;
