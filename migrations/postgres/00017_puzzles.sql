-- Puzzles: the same tables as sqlite/00017_puzzles.sql (docs/puzzles.md, "Storage").
--
-- puzzles: one per (match_id, step), the review's seq of the decision, its key, so that a
-- match's puzzles sit with its other rows; id is what the API names it by. player_id is the
-- lasting player whose decision it was ('' for a bot's, an anonymous seat's or a move its bot
-- made for it). position is the seat's view as JSON (the API's `position`), answer the
-- review's options, played and best moves and loss as JSON, both kept as text so that they
-- are answered byte for byte. mu and sigma are the puzzle's rating; attempts and solved count
-- its rated attempts. Times are Unix nanoseconds. A rated attempt locks its puzzle's row, then
-- its solver's (FOR UPDATE), always in that order.
-- puzzle_players: every lasting player of a puzzle's match, none of whom is offered it.
-- puzzle_attempts: a player's first attempt at a puzzle, the one rated.
-- puzzle_solvers: a player's puzzle rating.

-- +goose Up
CREATE TABLE puzzles (
    id         TEXT COLLATE "C" NOT NULL,
    match_id   TEXT COLLATE "C" NOT NULL,
    step       INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    player_id  TEXT COLLATE "C" NOT NULL DEFAULT '',
    position   TEXT    NOT NULL,
    answer     TEXT    NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (match_id, step)
);
CREATE UNIQUE INDEX puzzles_id ON puzzles (id);
CREATE INDEX puzzles_mu ON puzzles (mu, id);
CREATE INDEX puzzles_player ON puzzles (player_id, created_at) WHERE player_id <> '';
CREATE TABLE puzzle_players (
    puzzle_id TEXT COLLATE "C" NOT NULL,
    player_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (puzzle_id, player_id)
);
CREATE TABLE puzzle_attempts (
    puzzle_id TEXT COLLATE "C" NOT NULL,
    player_id TEXT COLLATE "C" NOT NULL,
    correct   BOOLEAN NOT NULL,
    at        BIGINT  NOT NULL,
    PRIMARY KEY (puzzle_id, player_id)
);
CREATE TABLE puzzle_solvers (
    player_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    attempts  INTEGER NOT NULL DEFAULT 0,
    solved    INTEGER NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE puzzle_solvers;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_players;
DROP INDEX puzzles_player;
DROP INDEX puzzles_mu;
DROP INDEX puzzles_id;
DROP TABLE puzzles;
