-- Game reviews (docs/review.md, "Storage"): derived data, kept apart from the log. A review is
-- computed once per match and method (the method string names the engine's version and
-- budgets), so the key is (match_id, method), starting with the match like every table's.
--
-- status is running while a worker computes it, done once result holds the answer's JSON
-- (byte for byte what the API serves: TEXT, never reparsed), failed when the match's record
-- cannot be reviewed (error_code says why). Times are TEXT in the store's one UTC form.

-- +goose Up
CREATE TABLE reviews (
    match_id     TEXT    NOT NULL REFERENCES matches (id),
    method       TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    result       TEXT,                         -- the answer's JSON; NULL unless done
    error_code   TEXT    NOT NULL DEFAULT '',  -- failed only: the problem's code
    requested_at TEXT    NOT NULL,
    finished_at  TEXT,                         -- NULL while running
    PRIMARY KEY (match_id, method),
    CHECK ((status = 'done') = (result IS NOT NULL))
) WITHOUT ROWID;

-- +goose Down
DROP TABLE reviews;
