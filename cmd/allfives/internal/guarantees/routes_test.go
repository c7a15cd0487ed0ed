package guarantees

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// access is who a route is for (docs/design.md, "The guarantee suite").
type access string

const (
	public    access = "API public"    // anyone, with or without a credential
	seat      access = "API seat"      // a match's seat holders (others read as spectators or are refused)
	player    access = "API player"    // a player's key
	organiser access = "API organiser" // a tournament's organiser
	static    access = "static"        // web pages, documents, metrics and probes
)

// classified is one route's class: who it is for, and whether it acts (changes something)
// or only reads.
type classified struct {
	access access
	acts   bool
}

// catalogue classifies every route the router serves, "METHOD path" as echo registers it. A
// route added to api/routes.go (or api/web) fails TestEveryRouteIsClassified, and the
// guarantee suite, until it has a row here and cases in cases.go's routeCases.
var catalogue = map[string]classified{
	"POST /api/v1/matches":                           {public, true},
	"GET /api/v1/matches":                            {public, false},
	"GET /api/v1/matches/:id":                        {seat, false},
	"POST /api/v1/matches/:id/moves":                 {seat, true},
	"GET /api/v1/matches/:id/legal-moves":            {seat, false},
	"GET /api/v1/matches/:id/events":                 {seat, false},
	"GET /api/v1/matches/:id/stream":                 {seat, false},
	"GET /api/v1/matches/:id/replay":                 {seat, false},
	"GET /api/v1/matches/:id/audit":                  {seat, false},
	"GET /api/v1/matches/:id/export":                 {seat, false},
	"POST /api/v1/matches/:id/review":                {seat, true},
	"GET /api/v1/matches/:id/review":                 {seat, false},
	"GET /api/v1/matches/:id/analysis":               {seat, false},
	"POST /api/v1/matches/:id/branches":              {public, true},
	"POST /api/v1/matches/:id/seats/:seat/join":      {public, true},
	"POST /api/v1/matches/:id/seats/:seat/leave":     {seat, true},
	"POST /api/v1/matches/:id/seats/:seat/resume":    {seat, true},
	"POST /api/v1/matches/:id/rematch":               {seat, true},
	"POST /api/v1/matches/:id/seats/:seat/decline":   {player, true},
	"POST /api/v1/matches/:id/cancel":                {seat, true},
	"POST /api/v1/matches/:id/resign":                {seat, true},
	"POST /api/v1/matches/:id/tickets":               {seat, true},
	"POST /api/v1/players":                           {public, true},
	"GET /api/v1/players":                            {public, false},
	"GET /api/v1/players/me":                         {player, false},
	"POST /api/v1/players/me/key":                    {player, true},
	"POST /api/v1/players/me/tickets":                {player, true},
	"GET /api/v1/players/me/stream":                  {player, false},
	"GET /api/v1/players/:id":                        {public, false},
	"GET /api/v1/players/:id/matches":                {public, false},
	"GET /api/v1/players/:id/ratings":                {public, false},
	"GET /api/v1/leaderboard/:format":                {public, false},
	"POST /api/v1/tournaments":                       {player, true},
	"GET /api/v1/tournaments":                        {public, false},
	"GET /api/v1/tournaments/:id":                    {public, false},
	"POST /api/v1/tournaments/:id/entries":           {player, true},
	"DELETE /api/v1/tournaments/:id/entries/:player": {player, true},
	"POST /api/v1/tournaments/:id/start":             {organiser, true},
	"POST /api/v1/tournaments/:id/cancel":            {organiser, true},
	"GET /api/v1/tournaments/:id/audit":              {public, false},
	"GET /api/v1/tournaments/:id/export":             {public, false},
	"POST /api/v1/seeks":                             {player, true},
	"GET /api/v1/seeks/:id":                          {player, false},
	"DELETE /api/v1/seeks/:id":                       {player, true},
	"GET /api/v1/puzzles/next":                       {public, false},
	"POST /api/v1/puzzles/:id/attempts":              {public, true},
	"GET /api/v1/players/:id/puzzles":                {player, false},
	"GET /healthz":                                   {static, false},
	"GET /readyz":                                    {static, false},
	"GET /metrics":                                   {static, false},
	"GET /openapi.yaml":                              {static, false},
	"GET /swagger/*":                                 {static, false},
	"GET /":                                          {static, false},
	"GET /play/:id":                                  {static, false},
	"GET /play":                                      {static, false},
	"GET /play/":                                     {static, false},
	"GET /replay/:id":                                {static, false},
	"GET /leaderboard/:format":                       {static, false},
	"GET /player/:id":                                {static, false},
	"GET /rules":                                     {static, false},
	"GET /tournaments":                               {static, false},
	"GET /tournaments/:id":                           {static, false},
	"GET /puzzles":                                   {static, false},
	"GET /assets/*":                                  {static, false},
}

// here is this file, which the messages name as the place to classify a route.
var here = filepath.Join("cmd", "allfives", "internal", "guarantees", "routes_test.go")

// routesOf is every route the router registered, "METHOD path", sorted.
func routesOf(e *echo.Echo) []string {
	var out []string
	for _, r := range e.Routes() {
		out = append(out, r.Method+" "+r.Path)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// unclassified says, for each route of the router without a row in catalogue or without
// cases, where to add them; and each row naming a route the router no longer has.
func unclassified(routes []string) []string {
	var bad []string
	for _, r := range routes {
		if _, ok := catalogue[r]; !ok {
			bad = append(bad, "route "+r+" is not classified: add it to catalogue in "+here+
				" (API public / seat / player / organiser, reading or acting; or static), and its cases to routeCases in cases_test.go")
		} else if _, ok := routeCases[r]; !ok {
			bad = append(bad, "route "+r+" has no cases: add them to routeCases in cases_test.go")
		}
	}
	for r := range catalogue {
		if !slices.Contains(routes, r) {
			bad = append(bad, "catalogue in "+here+" classifies "+r+", which the router does not serve: remove it")
		}
	}
	sort.Strings(bad)
	return bad
}

// TestEveryRouteIsClassified: the router of the server serve runs, taken from the router
// itself, has no route the guarantee suite does not classify and cover.
func TestEveryRouteIsClassified(t *testing.T) {
	s := newSuite(t, "sqlite", engines[0].db(t))
	routes := routesOf(s.srv.Echo)
	if len(routes) < 40 {
		t.Fatalf("the router lists %d routes; the server has more: %v", len(routes), routes)
	}
	if bad := unclassified(routes); len(bad) > 0 {
		t.Fatal(strings.Join(bad, "\n"))
	}
	t.Logf("%d routes, every one classified: %d static, %d of the API", len(routes), countStatic(), len(routes)-countStatic())
}

func countStatic() int {
	n := 0
	for _, c := range catalogue {
		if c.access == static {
			n++
		}
	}
	return n
}
