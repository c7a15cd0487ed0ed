-- A match cancelled before it started: the same end result as sqlite/00010_cancelled.sql
-- (docs/design.md, "Consent and resignation"). status gains 'cancelled', which a decline, a
-- withdrawal or an offer that expired sets.

-- +goose Up
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('waiting', 'in_progress', 'finished', 'expired', 'cancelled'));

-- +goose Down
-- Fails on a cancelled match, as it must: the old schema cannot hold one.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('waiting', 'in_progress', 'finished', 'expired'));
