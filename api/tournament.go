package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/tournament"
)

// createTournament makes a tournament organised by the caller.
//
//	@Summary		Create a tournament
//	@ID				createTournament
//	@Description	Makes a tournament organised by the key's player (docs/tournaments.md): rounds paired by its system, of tables of the format, duplicate or not, rated or not. It starts at starts_at when given, else when the organiser starts it. A player may organise 3 tournaments upcoming or running at once (429 RATE_LIMITED beyond).
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			body	body		CreateTournamentRequest	true	"the tournament"
//	@Success		201		{object}	TournamentView
//	@Header			201		{string}	Location	"/api/v1/tournaments/{id}"
//	@Failure		400		{object}	Problem		"INVALID_REQUEST"
//	@Failure		401		{object}	Problem		"UNAUTHORIZED"
//	@Failure		429		{object}	Problem		"RATE_LIMITED: the player organises as many tournaments as it may"
//	@Router			/api/v1/tournaments [post]
func (s *server) createTournament(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	var body CreateTournamentRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	spec := tournament.Spec{Name: body.Name, Format: tournament.Format(body.Format), System: tournament.System(body.System), Rounds: body.Rounds,
		Duplicate: body.Duplicate, Rated: body.Rated, Target: body.Target, TurnSeconds: body.TurnSeconds, StartsAt: body.StartsAt,
		MinEntries: body.MinEntries, MaxEntries: body.MaxEntries}
	st, err := s.tournaments.Create(c.Request().Context(), key, spec)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/api/v1/tournaments/"+st.ID)
	return c.JSON(http.StatusCreated, toTournamentView(st))
}

// listTournaments lists tournaments, newest first.
//
//	@Summary		List tournaments
//	@ID				listTournaments
//	@Description	Tournaments newest first: all, or those of one status (upcoming, running, finished, cancelled). Anyone may read them.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			status	query		string	false	"only this status"	Enums(upcoming, running, finished, cancelled)
//	@Param			limit	query		int		false	"how many"			minimum(1)	maximum(100)	default(20)
//	@Success		200		{object}	TournamentList
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Router			/api/v1/tournaments [get]
func (s *server) listTournaments(c echo.Context) error {
	q, err := query(c, "status", "limit")
	if err != nil {
		return err
	}
	var statuses []tournament.Status
	if q.Has("status") {
		st := tournament.Status(q.Get("status"))
		switch st {
		case tournament.Upcoming, tournament.Running, tournament.Finished, tournament.StatusCancelled:
		default:
			return domain.Invalidf("status must be upcoming, running, finished or cancelled, got %q", clip(q.Get("status")))
		}
		statuses = append(statuses, st)
	}
	limit, err := intParam(q, "limit", 20, 1, 100)
	if err != nil {
		return err
	}
	list, err := s.tournaments.List(c.Request().Context(), statuses, limit)
	if err != nil {
		return err
	}
	out := TournamentList{Tournaments: make([]TournamentView, len(list))}
	for i, st := range list {
		out.Tournaments[i] = toTournamentView(st)
	}
	return c.JSON(http.StatusOK, out)
}

// getTournament reads one tournament.
//
//	@Summary		Get a tournament
//	@ID				getTournament
//	@Description	The tournament: its spec, entries, rounds with each table's seats and match, and the standings after the rounds that ended. A duplicate round shows its commitment while it runs and its seed once it ended. Anyone may read it.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			id	path		string	true	"tournament id"
//	@Success		200	{object}	TournamentView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		404	{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Router			/api/v1/tournaments/{id} [get]
func (s *server) getTournament(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	t, err := s.tournaments.Get(c.Request().Context(), clip(c.Param("id")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournamentView(t.State))
}

// joinTournament enters the caller, or a bot, in an upcoming tournament.
//
//	@Summary		Enter a tournament
//	@ID				joinTournament
//	@Description	Enters the key's player in the upcoming tournament; by entering, the player accepts a seat at each of its tables. With {"bot": strategy} from the organiser's key, enters that bot instead (a bot enters a rated tournament once).
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id		path		string					true	"tournament id"
//	@Param			body	body		EnterTournamentRequest	false	"a bot to enter, or nothing"
//	@Success		201		{object}	TournamentEntry
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Failure		401		{object}	Problem	"UNAUTHORIZED"
//	@Failure		403		{object}	Problem	"NOT_ORGANISER: a bot entered by someone else"
//	@Failure		404		{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Failure		409		{object}	Problem	"TOURNAMENT_CLOSED, TOURNAMENT_FULL or ALREADY_ENTERED"
//	@Router			/api/v1/tournaments/{id}/entries [post]
func (s *server) joinTournament(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	var body EnterTournamentRequest
	if err := jsonbody.Optional(c, &body); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	e, err := s.tournaments.Enter(c.Request().Context(), clip(c.Param("id")), key, strings.TrimSpace(body.Bot))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, TournamentEntry{Player: e.Player, Name: e.Name, Bot: e.Bot, Rating: e.Rating})
}

// leaveTournament withdraws an entry before the start.
//
//	@Summary		Withdraw from a tournament
//	@ID				leaveTournament
//	@Description	Withdraws the entry of player ("me": the key's player) before the tournament starts. A player withdraws itself; the organiser withdraws any entry.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id		path		string	true	"tournament id"
//	@Param			player	path		string	true	"me, or the entry's player id"
//	@Success		200		{object}	TournamentView
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Failure		401		{object}	Problem	"UNAUTHORIZED"
//	@Failure		403		{object}	Problem	"NOT_ORGANISER"
//	@Failure		404		{object}	Problem	"TOURNAMENT_NOT_FOUND or PLAYER_NOT_FOUND (no such entry)"
//	@Failure		409		{object}	Problem	"TOURNAMENT_CLOSED"
//	@Router			/api/v1/tournaments/{id}/entries/{player} [delete]
func (s *server) leaveTournament(c echo.Context) error {
	player := clip(c.Param("player"))
	return s.tournamentCommand(c, func(ctx context.Context, id, key string) error {
		return s.tournaments.Withdraw(ctx, id, key, player)
	})
}

// startTournament starts an upcoming tournament early.
//
//	@Summary		Start a tournament
//	@ID				startTournament
//	@Description	The organiser starts the upcoming tournament now, with the entries it has (at least min_entries): the first round is paired and its matches created at once, but for tables of bots only beyond the organiser's bots-only limit or the bot pool's room, which wait (match empty) and start as both allow.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id	path		string	true	"tournament id"
//	@Success		200	{object}	TournamentView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED"
//	@Failure		403	{object}	Problem	"NOT_ORGANISER"
//	@Failure		404	{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Failure		409	{object}	Problem	"TOURNAMENT_CLOSED or TOO_FEW_ENTRIES"
//	@Router			/api/v1/tournaments/{id}/start [post]
func (s *server) startTournament(c echo.Context) error {
	return s.tournamentCommand(c, s.tournaments.Start)
}

// cancelTournament cancels a tournament not over.
//
//	@Summary		Cancel a tournament
//	@ID				cancelTournament
//	@Description	The organiser cancels the tournament before it finished. Each match of the round still waiting or being played first ends cancelled (reason tournament_cancelled; never rated); then the round ends, its tables that had ended show their scores, and a duplicate round reveals its seed. No round follows.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id	path		string	true	"tournament id"
//	@Success		200	{object}	TournamentView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED"
//	@Failure		403	{object}	Problem	"NOT_ORGANISER"
//	@Failure		404	{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Failure		409	{object}	Problem	"TOURNAMENT_CLOSED"
//	@Router			/api/v1/tournaments/{id}/cancel [post]
func (s *server) cancelTournament(c echo.Context) error {
	return s.tournamentCommand(c, s.tournaments.Cancel)
}

// tournamentCommand is the body of the commands a player's key gives about the tournament of
// the path that answer it as it then stands (withdraw, start, cancel): no query parameters,
// the key, act with the tournament's id and the key, then the tournament read again.
func (s *server) tournamentCommand(c echo.Context, act func(ctx context.Context, id, key string) error) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	ctx, id := c.Request().Context(), clip(c.Param("id"))
	if err := act(ctx, id, key); err != nil {
		return err
	}
	t, err := s.tournaments.Get(ctx, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournamentView(t.State))
}
