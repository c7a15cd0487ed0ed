-- Rematch (docs/api.md, "Players"): next_match_id on a finished match names the match its
-- rematch created; rematch_of on that match names the finished one. Its human seats start
-- without a token hash: each is claimed by the old seat's holder, who gets a fresh token on
-- its first call of the rematch (seats whose token_hash is still NULL are unclaimed). Both
-- columns are NULL for every match that is no rematch, as every match stored before is.

-- +goose Up
ALTER TABLE matches ADD COLUMN next_match_id TEXT;
ALTER TABLE matches ADD COLUMN rematch_of TEXT;

-- +goose Down
ALTER TABLE matches DROP COLUMN rematch_of;
ALTER TABLE matches DROP COLUMN next_match_id;
