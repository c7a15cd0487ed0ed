package api

import (
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/allfives/allfives/api/middleware"
	"github.com/allfives/allfives/api/web"

	_ "github.com/allfives/allfives/docs" // registers the Swagger document that /swagger/ serves
)

// The general information of the Swagger document (swag reads it from this file: -g routes.go).
//
//	@title						All Fives API
//	@version					1.0
//	@description				A referee for All Fives (Muggins) dominoes: create a match for 2 to 4 players, humans or bots, play it seat by seat, and read it as each seat may see it. Every error is application/problem+json (RFC 9457) with a stable code.
//	@license.name				MIT
//	@license.url				https://github.com/allfives/allfives/blob/main/LICENSE
//	@BasePath					/
//	@securityDefinitions.apikey	SeatToken
//	@in							header
//	@name						Authorization
//	@description				The token a human seat got when the match was created (POST /api/v1/matches shows it once). Sent as the Authorization header: the word Bearer, a space, then the token.
//	@securityDefinitions.apikey	PlayerKey
//	@in							header
//	@name						Authorization
//	@description				The key a player got when it was created (POST /api/v1/players shows it once) or last rotated. Sent as the Authorization header: the word Bearer, a space, then the key.

// routes registers every route of the server; there are no others.
func (s *server) routes(e *echo.Echo, reg *prometheus.Registry) {
	v1 := e.Group("/api/v1")
	v1.POST("/matches", s.createMatch)
	v1.GET("/matches", s.listMatches)
	v1.GET("/matches/:id", s.getMatch)
	v1.POST("/matches/:id/moves", s.move)
	v1.GET("/matches/:id/legal-moves", s.legalMoves)
	v1.GET("/matches/:id/events", s.events)
	v1.GET("/matches/:id/stream", s.stream)
	v1.GET("/matches/:id/replay", s.replay)
	v1.GET("/matches/:id/audit", s.audit)
	v1.GET("/matches/:id/export", s.export)
	v1.POST("/matches/:id/review", s.requestReview)
	v1.GET("/matches/:id/review", s.getReview)
	// Explore and Play on (docs/review.md, "Explore" and "Play on").
	v1.GET("/matches/:id/analysis", s.exploreDecision)
	v1.POST("/matches/:id/branches", s.createBranch)
	v1.POST("/matches/:id/seats/:seat/join", s.joinSeat)
	v1.POST("/matches/:id/seats/:seat/leave", s.leaveSeat)
	v1.POST("/matches/:id/seats/:seat/resume", s.resumeSeat)
	v1.POST("/matches/:id/rematch", s.rematch)
	// Consent and resignation (docs/api-matches.md, "Consent").
	v1.POST("/matches/:id/seats/:seat/decline", s.declineSeat)
	v1.POST("/matches/:id/cancel", s.cancelMatch)
	v1.POST("/matches/:id/resign", s.resignMatch)
	if s.players != nil {
		v1.POST("/players", s.createPlayer)
		v1.GET("/players", s.findPlayer)
		v1.GET("/players/me", s.getCurrentPlayer)
		v1.POST("/players/me/key", s.rotatePlayerKey)
		v1.POST("/players/me/tickets", s.createPlayerTicket)
		v1.GET("/players/me/stream", s.playerStream)
		v1.POST("/matches/:id/tickets", s.createMatchTicket)
		v1.GET("/players/:id", s.getPlayer)
		v1.GET("/players/:id/matches", s.listPlayerMatches)
	}
	if s.players != nil && s.tournaments != nil {
		// Tournaments (docs/tournaments.md).
		v1.POST("/tournaments", s.createTournament)
		v1.GET("/tournaments", s.listTournaments)
		v1.GET("/tournaments/:id", s.getTournament)
		v1.POST("/tournaments/:id/entries", s.joinTournament)
		v1.DELETE("/tournaments/:id/entries/:player", s.leaveTournament)
		v1.POST("/tournaments/:id/start", s.startTournament)
		v1.POST("/tournaments/:id/cancel", s.cancelTournament)
		v1.GET("/tournaments/:id/audit", s.auditTournament)
		v1.GET("/tournaments/:id/export", s.exportTournament)
	}
	if s.players != nil && s.seeks != nil {
		// Play now (docs/matchmaking.md).
		v1.POST("/seeks", s.createSeek)
		v1.GET("/seeks/:id", s.getSeek)
		v1.DELETE("/seeks/:id", s.cancelSeek)
	}
	if s.players != nil && s.puzzles != nil {
		// Puzzles (docs/puzzles.md).
		v1.GET("/puzzles/next", s.nextPuzzle)
		v1.POST("/puzzles/:id/attempts", s.attemptPuzzle)
		v1.GET("/players/:id/puzzles", s.listPlayerPuzzles)
	}
	if s.players != nil && s.ratings != nil {
		v1.GET("/players/:id/ratings", s.getPlayerRatings)
		v1.GET("/leaderboard/:format", s.getLeaderboard)
	}

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metricsEndpoint(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
	e.GET("/openapi.yaml", s.openAPI)
	// Swagger UI gets a policy of its own: the web client's seat tokens share its origin.
	ui := swaggerUI()
	e.GET("/swagger/*", ui, middleware.SwaggerSecurity(ui))
	web.Register(e) // the browser client: /, /play/{id}, /replay/{id}, /leaderboard/{format}, /player/{id}, /assets/*
}

// bodyRoutes are the POST routes that read a JSON body. Every other POST route takes none:
// whatever a client sends there is refused rather than ignored (jsonbody.None), so that a client
// that believes it sent something the server reads learns that it did not.
var bodyRoutes = map[string]bool{
	"/api/v1/matches":                      true,
	"/api/v1/matches/:id/moves":            true,
	"/api/v1/matches/:id/branches":         true,
	"/api/v1/matches/:id/seats/:seat/join": true,
	"/api/v1/players":                      true,
	"/api/v1/tournaments":                  true,
	"/api/v1/tournaments/:id/entries":      true,
	"/api/v1/seeks":                        true,
	"/api/v1/puzzles/:id/attempts":         true,
}
