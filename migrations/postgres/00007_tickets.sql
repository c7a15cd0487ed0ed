-- Single-use tickets for the live streams: the same tickets table as sqlite/00007_tickets.sql
-- (docs/api.md, "Players"), and the announcement of seats bound to players.
--
-- tickets: hash is the SHA-256 of the ticket (256 random bits), its only trace. match_id is
-- the match whose stream the ticket opens ('' for the player's own stream), and leads the key
-- like every match's table. seat is the seat it stands for (-1 for the player's stream).
-- credential is the SHA-256 of the key or seat token it was issued with, and player_id the
-- player whose key that was ('' for a seat token): a stream opened with the ticket re-checks
-- them on every read. expires_at is in Unix nanoseconds. Taking a ticket is one DELETE ...
-- RETURNING, so of two instances racing for it one gets it; issuing one deletes those expired.
--
-- seats_announce: a match created with a seat bound or reserved to a player (a challenge, a
-- rematch) announces itself on the appends' channel (repository/postgres Channel, payload
-- "<version> <match id>"), as every append does, so that each instance's player streams hear
-- of it. NOTIFY folds the same payload sent twice in one transaction into one.

-- +goose Up
CREATE TABLE tickets (
    match_id   TEXT COLLATE "C" NOT NULL,
    hash       BYTEA   NOT NULL CHECK (length(hash) = 32),
    seat       INTEGER NOT NULL CHECK (seat >= -1),
    player_id  TEXT COLLATE "C" NOT NULL DEFAULT '',
    credential BYTEA   NOT NULL CHECK (length(credential) = 32),
    expires_at BIGINT  NOT NULL,
    PRIMARY KEY (match_id, hash)
);
CREATE INDEX tickets_expires ON tickets (expires_at);

-- +goose StatementBegin
CREATE FUNCTION seats_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('allfives_appended', '1 ' || NEW.match_id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER seats_announce AFTER INSERT ON seats
    FOR EACH ROW WHEN (NEW.player_id IS NOT NULL) EXECUTE FUNCTION seats_announce();

-- +goose Down
DROP TRIGGER seats_announce ON seats;
DROP FUNCTION seats_announce();
DROP INDEX tickets_expires;
DROP TABLE tickets;
