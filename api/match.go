package api

import (
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// createMatch starts a match.
//
//	@Summary			Create a match
//	@ID					createMatch
//	@Description		Starts a match for 2 to 4 players (humans, bots and open seats) and answers the match as a spectator sees it, with a secret token for each named human seat and a secret invite for each open seat. Tokens and invites are shown only here: keep them. With an open seat the match waits (status waiting) until every seat is joined; the last join deals. Bots play at once until a human is to move. turn_seconds sets a clock: a human who does not act in time has the turn played by the greedy bot. rated makes the match move its players' ratings once it ends (docs/ratings.md): every seat must then be a bot (each strategy once: a bot of strategy X is the player bot-X) or bound to a player, and no seed may be chosen. A seat bound to a player shows the player's name (a name given must be that one: else 400 INVALID_REQUEST); a bot seat may leave its name out, and is then named after its bot's player (bot-greedy).
//	@Tags				matches
//	@Accept				json
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				body	body		CreateMatchRequest	true	"players and options"
//	@Success			201		{object}	CreateMatchResponse
//	@Header				201		{string}	Location	"/api/v1/matches/{id}"
//	@Failure			400		{object}	Problem		"INVALID_REQUEST (a rated match with an anonymous seat, a bot strategy twice or a chosen seed among others), or SEED_WITH_OPEN_SEATS: a seed chosen for a match with an open seat, whose creator could compute the joiners' hands"
//	@Failure			401		{object}	Problem		"UNAUTHORIZED: a player entry \"me\" without a valid player key in Authorization"
//	@Failure			404		{object}	Problem		"PLAYER_NOT_FOUND: a player entry names no player"
//	@Failure			408		{object}	Problem		"REQUEST_TIMEOUT: the body did not arrive before the server\'s read timeout"
//	@Failure			409		{object}	Problem		"ALREADY_SEATED: two entries name one player"
//	@Failure			413		{object}	Problem		"PAYLOAD_TOO_LARGE"
//	@Failure			415		{object}	Problem		"UNSUPPORTED_MEDIA_TYPE"
//	@Failure			429		{object}	Problem		"RATE_LIMITED: a challenge beyond --limit-challenges (per client address and per player) or beyond --max-waiting-challenges (20 waiting for an answer from one player, or to one player), or a match of bots only beyond --limit-bot-matches (docs/operations.md, \"Limits\"); Retry-After says when to retry"
//	@Header				429		{integer}	Retry-After	"seconds to wait before retrying"
//	@Failure			503		{object}	Problem		"UNAVAILABLE, or STORE_BUSY: a match of bots only while the bot pool holds --bot-queue of them, or the store stayed locked beyond its timeout; Retry-After says when to retry"
//	@Header				503		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router				/api/v1/matches [post]
func (s *server) createMatch(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	var body CreateMatchRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	// Absent is 0, the referee's default; a value given was checked against its range by
	// Decode (0 included), from the request's tags.
	target, turnSeconds, autoplayAfter := orZero(body.Target), orZero(body.TurnSeconds), orZero(body.AutoplayAfter)
	key, err := bearer(c) // a player key, for a seat bound to "me"
	if err != nil {
		return err
	}
	req := referee.CreateRequest{
		Key: key, Partnerships: body.Partnerships, Target: target, Seed: body.Seed,
		Listed: body.Listed, TurnSeconds: turnSeconds, AutoplayAfter: autoplayAfter, Rated: body.Rated,
	}
	for _, p := range body.Players {
		req.Players = append(req.Players, domain.PlayerInfo{Name: p.Name, Kind: domain.PlayerKind(p.Kind), Bot: p.Bot, Player: p.Player})
	}
	if err := s.admitCreate(c, req); err != nil {
		return err
	}
	created, err := s.svc.Create(c.Request().Context(), req)
	if errors.Is(err, referee.ErrBotsBusy) {
		return &problem.Error{Code: problem.CodeUnavailable, Detail: referee.ErrBotsBusy.Error(), RetryAfter: referee.BotsRetryAfter}
	}
	if err != nil {
		return err
	}
	out := CreateMatchResponse{Match: ToMatchView(created.Match), Tokens: make([]SeatToken, len(created.Tokens)), Invites: make([]SeatInvite, len(created.Invites))}
	for i, t := range created.Tokens {
		out.Tokens[i] = SeatToken{Seat: t.Seat, Token: t.Token}
	}
	for i, inv := range created.Invites {
		out.Invites[i] = SeatInvite{Seat: inv.Seat, Invite: inv.Invite}
	}
	h := c.Response().Header()
	h.Set(echo.HeaderLocation, "/api/v1/matches/"+created.Match.ID)
	h.Set("Cache-Control", "no-store") // the tokens are secrets: no cache may keep them
	return c.JSON(http.StatusCreated, out)
}

// listMatches pages through the history.
//
//	@Summary		List matches
//	@ID				listMatches
//	@Description	The match history, newest first, filtered and paged. Pass next_cursor back as cursor for the next page.
//	@Tags			matches
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			status	query		string	false	"only matches with this status; waiting is the lobby: listed matches with an open seat"	Enums(waiting, in_progress, finished, expired, cancelled)
//	@Param			player	query		string	false	"only matches with a seat of this name"
//	@Param			since	query		string	false	"created at or after (RFC 3339)"	format(date-time)
//	@Param			until	query		string	false	"created before (RFC 3339)"			format(date-time)
//	@Param			limit	query		int		false	"page size"							minimum(1)	maximum(100)	default(20)
//	@Param			cursor	query		string	false	"next_cursor of the previous page"
//	@Success		200		{object}	HistoryResponse
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Router			/api/v1/matches [get]
func (s *server) listMatches(c echo.Context) error {
	q, err := query(c, "status", "player", "since", "until", "limit", "cursor")
	if err != nil {
		return err
	}
	hq := referee.HistoryQuery{Status: domain.Status(q.Get("status")), Player: q.Get("player"), Cursor: q.Get("cursor")}
	switch hq.Status {
	case domain.StatusWaiting, domain.StatusInProgress, domain.StatusFinished, domain.StatusExpired, domain.StatusCancelled:
	default:
		if q.Has("status") {
			return domain.Invalidf("status must be waiting, in_progress, finished, expired or cancelled, got %q", clip(q.Get("status")))
		}
	}
	// Characters, not bytes, as the contract's maxLength counts them.
	if q.Has("player") && (hq.Player == "" || utf8.RuneCountInString(hq.Player) > 64) {
		return domain.Invalidf("player must be a name of 1 to 64 characters")
	}
	if q.Has("cursor") && hq.Cursor == "" {
		return domain.Invalidf("cursor must not be empty; leave it out for the first page")
	}
	for name, dst := range map[string]*time.Time{"since": &hq.Since, "until": &hq.Until} {
		if !q.Has(name) {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, q.Get(name))
		if err != nil {
			return domain.Invalidf("%s must be an RFC 3339 time like 2025-01-31T12:00:00Z, got %q", name, clip(q.Get(name)))
		}
		*dst = t.UTC()
	}
	if q.Has("until") && !hq.Until.After(time.Time{}) {
		// The zero time means "not given" to the stores, but an until this early, given, leaves
		// nothing before it: the first instant after it keeps the page as empty as it must be.
		hq.Until = time.Time{}.Add(time.Nanosecond)
	}
	if hq.Limit, err = intParam(q, "limit", 20, 1, 100); err != nil {
		return err
	}
	page, err := s.svc.History(c.Request().Context(), hq)
	if err != nil {
		return err
	}
	out := HistoryResponse{Matches: make([]HistoryItem, len(page.Matches))}
	for i, m := range page.Matches {
		out.Matches[i] = toHistoryItem(m)
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	return c.JSON(http.StatusOK, out)
}

// getMatch reads the match as the caller may see it.
//
//	@Summary			Get a match
//	@ID					getMatch
//	@Description		The match as the caller may see it: with a seat token, that seat's tiles (and its legal moves when it is to move); without one, a spectator's view with no hand. While the match is live no response shows another seat's tiles. A finished match's view says where its review stands (review: none, running, done or failed), so that a client learns whether there is one without asking GET /review. ETag changes with every event; send it back in If-None-Match to get 304 when nothing changed.
//	@Tags				matches
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id				path		string	true	"match id"
//	@Param				If-None-Match	header		string	false	"an ETag from an earlier answer"
//	@Success			200				{object}	MatchView
//	@Header				200				{string}	ETag	"this view's tag: the version and the seat (s for a spectator), quoted, like 12-0; a finished match's may go on with -r once it has a rematch, -g with a hash of its rating changes once it is rated, and -v with the first letter of its review's state (n, r, d or f)"
//	@Success			304				"not modified since the ETag given"
//	@Failure			400				{object}	Problem	"INVALID_REQUEST"
//	@Failure			401				{object}	Problem	"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404				{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure			409				{object}	Problem	"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router				/api/v1/matches/{id} [get]
func (s *server) getMatch(c echo.Context) error {
	id, v, err := s.matchCaller(c, s.viewer)
	if err != nil {
		return err
	}
	body, version, err := s.svc.EncodedView(c.Request().Context(), id, v, s.encodeMatchView)
	if err != nil {
		return err
	}
	tag := etag(version, v)
	if body, tag, err = s.withNextMatch(c, id, body, tag); err != nil {
		return err
	}
	if body, tag, err = s.withRatingChanges(c, id, body, tag); err != nil {
		return err
	}
	if body, tag, err = s.withReview(c, id, body, tag); err != nil {
		return err
	}
	c.Response().Header().Set("ETag", tag)
	recordHeaders(c)
	if notModified(c.Request(), tag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// orZero is an optional number of a request: absent is 0.
func orZero(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}
