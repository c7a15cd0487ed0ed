package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// auditTournament re-verifies a tournament.
//
//	@Summary		Audit a tournament
//	@ID				auditTournament
//	@Description	Re-verifies the tournament's hash chain and log, re-pairs every round from the rounds before it, checks every table's match against its own record (its seats, the round's committed seed in a duplicate round, its final score) and each revealed seed against its commitment, and recomputes the standings. Anyone may ask.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			id	path		string	true	"tournament id"
//	@Success		200	{object}	TournamentAudit
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		404	{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Router			/api/v1/tournaments/{id}/audit [get]
func (s *server) auditTournament(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	ctx, id := c.Request().Context(), clip(c.Param("id"))
	rep, err := s.tournaments.Audit(ctx, id)
	if err != nil {
		return err
	}
	t, err := s.tournaments.Get(ctx, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournamentAudit(rep, t.State))
}

// exportTournament answers a tournament's whole record.
//
//	@Summary		Export a tournament
//	@ID				exportTournament
//	@Description	The tournament's view and its whole hash-chained log, each event's payload exactly as hashed: with its matches' exports, `allfives tournament FILE...` recomputes the standings offline.
//	@Tags			tournaments
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			id	path		string	true	"tournament id"
//	@Success		200	{object}	TournamentExport
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		404	{object}	Problem	"TOURNAMENT_NOT_FOUND"
//	@Router			/api/v1/tournaments/{id}/export [get]
func (s *server) exportTournament(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	t, err := s.tournaments.Get(c.Request().Context(), clip(c.Param("id")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, TournamentExport{Tournament: toTournamentView(t.State), Events: toTournamentEvents(t.Links)})
}
