-- Idempotency keys per seat, and the seeded flag in the read model: the same end result as
-- sqlite/00003_seat_keys_and_seeded.sql (docs/design.md, "Persistence"; docs/api.md,
-- "Idempotency").
--
-- idempotency_keys: keyed by (match_id, seat, key) instead of (match_id, key), so that one
-- seat's key neither blocks nor reveals another seat's. Every record keeps the seat it was
-- stored with. matches: seeded says the creator chose the seed; a match stored before this
-- migration has it in its match.created event, and a match.created without it was not seeded.
--
-- PostgreSQL changes both tables in place, in the one transaction goose runs this file in.

-- +goose Up
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey,
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (match_id, seat, key);

ALTER TABLE matches ADD COLUMN seeded BOOLEAN NOT NULL DEFAULT false;

-- Only seeded matches are rewritten; the default is right for the others.
UPDATE matches SET seeded = true
WHERE (SELECT (e.data::json ->> 'seeded')::boolean FROM events e WHERE e.match_id = matches.id AND e.seq = 1);

-- +goose Down
ALTER TABLE matches DROP COLUMN seeded;

-- Fails when two seats of one match used the same key, as it must: the old schema cannot
-- hold both records.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey,
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (match_id, key);
