-- A player's matches of one status, and its turns, without a look at its other matches
-- (docs/api.md, "Players"; docs/performance.md). match_status is, on each bound seat, the
-- status of its match (NULL on an anonymous seat, as player_id is), kept by the triggers
-- below, never written by the code: the seat's insert or binding copies the match's status,
-- and a change of the match's status, the rare append that sets the column to another value,
-- copies it onto its bound seats. The index seats_player_status (player_id, match_status,
-- match_created_at, match_id) then walks, newest first and with the cursor of
-- seats_player_matches, only the player's matches of the status asked for (turn=me: those in
-- progress, whose turn is then read from each one's matches row); before it, a filter read the
-- matches row of every one of the player's matches until the page was full, which at a
-- million stored matches took 190 ms to find a player's one turn among its 10,000 matches.

-- +goose Up
ALTER TABLE seats ADD COLUMN match_status TEXT;
UPDATE seats SET match_status = (SELECT status FROM matches WHERE matches.id = seats.match_id)
WHERE player_id IS NOT NULL;
CREATE INDEX seats_player_status ON seats (player_id, match_status, match_created_at, match_id)
    WHERE player_id IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_insert AFTER INSERT ON seats
WHEN NEW.player_id IS NOT NULL
BEGIN
    UPDATE seats SET match_status = (SELECT status FROM matches WHERE id = NEW.match_id)
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seats_status_on_bind AFTER UPDATE OF player_id ON seats
BEGIN
    UPDATE seats SET match_status = CASE WHEN NEW.player_id IS NULL THEN NULL
        ELSE (SELECT status FROM matches WHERE id = NEW.match_id) END
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER matches_status_to_seats AFTER UPDATE OF status ON matches
WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE seats SET match_status = NEW.status WHERE match_id = NEW.id AND player_id IS NOT NULL;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER matches_status_to_seats;
DROP TRIGGER seats_status_on_bind;
DROP TRIGGER seats_status_on_insert;
DROP INDEX seats_player_status;
ALTER TABLE seats DROP COLUMN match_status;
