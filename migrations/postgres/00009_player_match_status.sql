-- A player's matches of one status, and its turns, without a look at its other matches: the
-- same end result as sqlite/00009_player_match_status.sql (docs/api.md, "Players";
-- docs/performance.md). match_status is, on each bound seat, the status of its match (NULL on
-- an anonymous seat, as player_id is), kept by the triggers below, never written by the code:
-- a seat's insert or binding takes the match's status (BEFORE, on the row itself), and a
-- change of the match's status, the rare append that sets the column to another value, copies
-- it onto its bound seats. The index seats_player_status (player_id, match_status,
-- match_created_at, match_id) then walks only the player's matches of the status asked for
-- (turn=me: those in progress, whose turn is then read from each one's matches row).

-- +goose Up
ALTER TABLE seats ADD COLUMN match_status TEXT;
UPDATE seats s SET match_status = m.status FROM matches m WHERE m.id = s.match_id AND s.player_id IS NOT NULL;
CREATE INDEX seats_player_status ON seats (player_id, match_status, match_created_at, match_id)
    WHERE player_id IS NOT NULL;

-- +goose StatementBegin
CREATE FUNCTION seats_match_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.player_id IS NULL THEN
        NEW.match_status := NULL;
    ELSE
        NEW.match_status := (SELECT status FROM matches WHERE id = NEW.match_id);
    END IF;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER seats_status_on_write BEFORE INSERT OR UPDATE OF player_id ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_match_status();

-- +goose StatementBegin
CREATE FUNCTION matches_status_to_seats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET match_status = NEW.status WHERE match_id = NEW.id AND player_id IS NOT NULL;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER matches_status_to_seats AFTER UPDATE OF status ON matches
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION matches_status_to_seats();

-- +goose Down
DROP TRIGGER matches_status_to_seats ON matches;
DROP FUNCTION matches_status_to_seats();
DROP TRIGGER seats_status_on_write ON seats;
DROP FUNCTION seats_match_status();
DROP INDEX seats_player_status;
ALTER TABLE seats DROP COLUMN match_status;
