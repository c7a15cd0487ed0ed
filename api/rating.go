package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
)

// getPlayerRatings answers a player's ratings and history.
//
//	@Summary		Get a player's ratings
//	@ID				getPlayerRatings
//	@Description	The player's rating in each format it played rated (2p, 3p, 4p, 2v2, each rated apart): mu, sigma, the displayed rating mu - 3 sigma, its rated matches and wins, its rated matches against opponents who were established when they met (established_matches: every player of every other side a bot or a player not provisional then), and whether the rating is still provisional (fewer than 10 rated matches of the format, sigma above 6, or fewer than 10 matches against established opponents). Then its history, newest first: what each rated match did to its rating, and whether it counted against established opponents. The bots are players too: a bot of strategy X is the player bot-X (bot-greedy). A match is rated shortly after it ends (docs/ratings.md). Anyone may read it.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			id		path		string	true	"player id"
//	@Param			format	query		string	false	"only this format's history"	Enums(2p, 3p, 4p, 2v2)
//	@Param			limit	query		int		false	"history page size"				minimum(1)	maximum(200)	default(50)
//	@Param			cursor	query		string	false	"next_cursor of the previous page"
//	@Success		200		{object}	PlayerRatingsResponse
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Failure		404		{object}	Problem	"PLAYER_NOT_FOUND"
//	@Router			/api/v1/players/{id}/ratings [get]
func (s *server) getPlayerRatings(c echo.Context) error {
	q, err := query(c, "format", "limit", "cursor")
	if err != nil {
		return err
	}
	hq := ratings.HistoryQuery{Cursor: q.Get("cursor")}
	if q.Has("format") {
		if hq.Format, err = formatParam(q.Get("format")); err != nil {
			return err
		}
	}
	if q.Has("cursor") && hq.Cursor == "" {
		return domain.Invalidf("cursor must not be empty; leave it out for the first page")
	}
	if hq.Limit, err = intParam(q, "limit", 50, 1, 200); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id := clip(c.Param("id"))
	prof, err := s.players.Profile(ctx, id)
	if err != nil {
		return err
	}
	got, err := s.ratings.Player(ctx, id, hq)
	if err != nil {
		return err
	}
	out := PlayerRatingsResponse{Ratings: map[string]FormatRating{}, History: make([]RatingHistoryItem, len(got.History)), Program: prof.Program}
	for _, st := range got.Standings {
		out.Ratings[string(st.Format)] = FormatRating{
			Mu: st.Rating.Mu, Sigma: st.Rating.Sigma, Rating: st.Ordinal(), Matches: st.Matches, Wins: st.Wins,
			EstablishedMatches: st.Established, Provisional: st.Provisional(),
		}
	}
	for i, ch := range got.History {
		out.History[i] = RatingHistoryItem{
			MatchID: ch.MatchID, Format: string(ch.Format), EndedAt: ch.EndedAt, Seat: ch.Seat, Won: ch.Won,
			Before: toRatingValue(ch.Before), After: toRatingValue(ch.After), AgainstEstablished: ch.AgainstEstablished,
		}
	}
	if got.NextCursor != "" {
		out.NextCursor = &got.NextCursor
	}
	return c.JSON(http.StatusOK, out)
}

// getLeaderboard answers a page of a format's leaderboard.
//
//	@Summary		Get a leaderboard
//	@ID				getLeaderboard
//	@Description	The players of a format ranked by rating (mu - 3 sigma), highest first, equal ratings sharing a rank; provisional ratings (fewer than 10 rated matches of the format, sigma above 6, or fewer than 10 rated matches against opponents who were established when they met: a bot, or a player not provisional then) are left out, so fresh accounts losing to one account on purpose cannot rank it. The bots are ranked like anyone. players=humans keeps only people, players=programs only programs (the bots, and players made with "program": true; docs/engine.md), ranked among themselves; each row's player says "program": true for a program. Pass next_cursor back as cursor for the next page; a page deep in the board costs what the first does.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			format	path		string	true	"the format"	Enums(2p, 3p, 4p, 2v2)
//	@Param			limit	query		int		false	"page size"		minimum(1)	maximum(100)	default(20)
//	@Param			cursor	query		string	false	"next_cursor of the previous page"
//	@Param			players	query		string	false	"only people, or only programs (bots count as programs); left out: everyone"	Enums(humans, programs)
//	@Success		200		{object}	LeaderboardResponse
//	@Failure		400		{object}	Problem	"INVALID_REQUEST: an unknown format, limit or cursor"
//	@Router			/api/v1/leaderboard/{format} [get]
func (s *server) getLeaderboard(c echo.Context) error {
	q, err := query(c, "limit", "cursor", "players")
	if err != nil {
		return err
	}
	who, err := playersParam(q.Get("players"), q.Has("players"))
	if err != nil {
		return err
	}
	format, err := formatParam(c.Param("format"))
	if err != nil {
		return err
	}
	limit, err := intParam(q, "limit", 20, 1, 100)
	if err != nil {
		return err
	}
	if q.Has("cursor") && q.Get("cursor") == "" {
		return domain.Invalidf("cursor must not be empty; leave it out for the first page")
	}
	board, err := s.ratings.Leaderboard(c.Request().Context(), format, who, q.Get("cursor"), limit)
	if err != nil {
		return err
	}
	out := LeaderboardResponse{Format: string(format), Players: make([]LeaderboardEntry, len(board.Rows))}
	for i, r := range board.Rows {
		out.Players[i] = LeaderboardEntry{
			Rank: r.Rank, Player: LeaderboardPlayer{ID: r.Player, Name: r.Name, Program: r.Program}, Rating: r.Ordinal(),
			Mu: r.Rating.Mu, Sigma: r.Rating.Sigma, Matches: r.Matches, Wins: r.Wins,
		}
	}
	if board.NextCursor != "" {
		out.NextCursor = &board.NextCursor
	}
	return c.JSON(http.StatusOK, out)
}

// playersParam reads a leaderboard's ?players=.
func playersParam(s string, given bool) (ratings.Players, error) {
	switch who := ratings.Players(s); {
	case !given:
		return ratings.AllPlayers, nil
	case who == ratings.Humans || who == ratings.Programs:
		return who, nil
	}
	return "", domain.Invalidf("players must be humans or programs, not %q", s)
}

// formatParam reads a format's name.
func formatParam(s string) (ratings.Format, error) {
	f, ok := ratings.ParseFormat(s)
	if !ok {
		names := make([]string, len(ratings.Formats))
		for i, f := range ratings.Formats {
			names[i] = string(f)
		}
		return "", domain.Invalidf("format must be one of %s, got %q", strings.Join(names, ", "), clip(s))
	}
	return f, nil
}

// withRatingChanges adds rating_changes to a state read's body, and a mark to its tag, once
// a finished rated match is rated: the changes are kept beside the log, so the view of the
// version does not hold them, and they appear after the match.ended (the projection rates
// it shortly after). A match that is not rated, or not finished, costs no read.
func (s *server) withRatingChanges(c echo.Context, id string, body []byte, tag string) ([]byte, string, error) {
	if s.ratings == nil {
		return body, tag, nil
	}
	ctx := c.Request().Context()
	rated, finished, err := s.svc.RatedState(ctx, id)
	if err != nil || !rated || !finished {
		return body, tag, err
	}
	changes, err := s.ratings.MatchChanges(ctx, id)
	if err != nil || len(changes) == 0 {
		return body, tag, err
	}
	field, err := json.Marshal(toSeatRatingChanges(changes))
	if err != nil {
		return nil, "", err
	}
	end := bytes.LastIndexByte(body, '}')
	if end < 0 {
		return body, tag, nil
	}
	out := append(append(append([]byte(nil), body[:end]...), `,"rating_changes":`...), field...)
	out = append(out, body[end:]...)
	// A rewind (docs/ratings.md, "The projection") can change the figures of a rated match:
	// the tag follows them.
	h := fnv.New32a()
	h.Write(field)
	return out, fmt.Sprintf(`%s-g%08x"`, strings.TrimSuffix(tag, `"`), h.Sum32()), nil
}
