-- Players who last beyond one match, and the column that binds a seat to one: the same end
-- result as sqlite/00005_players.sql (docs/design.md, "Players"; docs/api.md, "Players").
--
-- players: keyed by its public id (like matches, the one other table not keyed by match_id:
-- a player is no match's). name is the enforced form, as shown; name_key is the PRECIS
-- Nickname comparison key of domain/names, unique, so that "Ada", "ada" and "ＡＤＡ" cannot be
-- two players. key_hash is the SHA-256 of the player's current key, unique, and the key's only
-- trace: authenticating is an indexed equality on it. key_rotated_at is when that key was
-- issued (created_at until the first rotation). Compared text is COLLATE "C", as in 00001.
--
-- seats: player_id binds a seat to a player (NULL for an anonymous seat, which every seat
-- stored before this migration is). match_created_at is the match's created_at, copied onto a
-- bound seat, so that "a player's matches, newest first" is one backward walk of the partial
-- index seats_player_matches: (player_id, match_created_at, match_id), the same order and the
-- same keyset cursor as the history's (created_at, id), with no sort and no look at the
-- matches of other players. Unique, it also holds that one player has at most one seat of a
-- match (match_created_at is a function of match_id). The two columns are set together.

-- +goose Up
CREATE TABLE players (
    id             TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    name           TEXT    NOT NULL,
    name_key       TEXT COLLATE "C" NOT NULL,
    key_hash       BYTEA   NOT NULL CHECK (length(key_hash) = 32),
    created_at     TEXT COLLATE "C" NOT NULL,
    key_rotated_at TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX players_name_key ON players (name_key);
CREATE UNIQUE INDEX players_key_hash ON players (key_hash);

ALTER TABLE seats
    ADD COLUMN player_id        TEXT COLLATE "C" REFERENCES players (id),
    ADD COLUMN match_created_at TEXT COLLATE "C",
    ADD CONSTRAINT seats_player_bound CHECK ((player_id IS NULL) = (match_created_at IS NULL));
CREATE UNIQUE INDEX seats_player_matches ON seats (player_id, match_created_at, match_id)
    WHERE player_id IS NOT NULL;

-- +goose Down
DROP INDEX seats_player_matches;
ALTER TABLE seats
    DROP CONSTRAINT seats_player_bound,
    DROP COLUMN match_created_at,
    DROP COLUMN player_id;
DROP TABLE players;
