-- Players who last beyond one match, and the column that binds a seat to one (docs/design.md,
-- "Players"; docs/api.md, "Players").
--
-- players: keyed by its public id (like matches, the one other table not keyed by match_id:
-- a player is no match's). name is the enforced form, as shown; name_key is the PRECIS
-- Nickname comparison key of domain/names, unique, so that "Ada", "ada" and "ＡＤＡ" cannot be
-- two players. key_hash is the SHA-256 of the player's current key, unique, and the key's only
-- trace: authenticating is an indexed equality on it. key_rotated_at is when that key was
-- issued (created_at until the first rotation).
--
-- seats: player_id binds a seat to a player (NULL for an anonymous seat, which every seat
-- stored before this migration is). match_created_at is the match's created_at, copied onto a
-- bound seat, so that "a player's matches, newest first" is one backward walk of the partial
-- index seats_player_matches: (player_id, match_created_at, match_id), the same order and the
-- same keyset cursor as the history's (created_at, id), with no sort and no look at the
-- matches of other players. Unique, it also holds that one player has at most one seat of a
-- match (match_created_at is a function of match_id). The two columns are set together.
--
-- Adding the columns needs no rebuild. Dropping them does (SQLite cannot drop a column that a
-- foreign key names), so Down rebuilds seats the way 00002 does, and the file runs outside
-- goose's transaction with foreign keys off, as 00002 and 00003 do.

-- +goose NO TRANSACTION
-- +goose Up
BEGIN IMMEDIATE;

CREATE TABLE players (
    id             TEXT NOT NULL PRIMARY KEY,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL,
    key_hash       BLOB NOT NULL CHECK (length(key_hash) = 32),
    created_at     TEXT NOT NULL,
    key_rotated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX players_name_key ON players (name_key);
CREATE UNIQUE INDEX players_key_hash ON players (key_hash);

ALTER TABLE seats ADD COLUMN player_id TEXT REFERENCES players (id);
ALTER TABLE seats ADD COLUMN match_created_at TEXT
    CHECK ((player_id IS NULL) = (match_created_at IS NULL));
CREATE UNIQUE INDEX seats_player_matches ON seats (player_id, match_created_at, match_id)
    WHERE player_id IS NOT NULL;

COMMIT;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

DROP INDEX seats_player_matches;
CREATE TABLE seats_v3 (
    match_id    TEXT    NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    name        TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'open')),
    bot         TEXT    NOT NULL DEFAULT '',
    token_hash  BLOB,
    invite_hash BLOB,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
INSERT INTO seats_v3 (match_id, seat, name, kind, bot, token_hash, invite_hash)
SELECT match_id, seat, name, kind, bot, token_hash, invite_hash FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v3 RENAME TO seats;
CREATE INDEX seats_name_match ON seats (name, match_id);

DROP INDEX players_key_hash;
DROP INDEX players_name_key;
DROP TABLE players;

COMMIT;
PRAGMA foreign_keys = ON;
