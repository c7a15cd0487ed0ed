package openapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/api/middleware"
	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/quota"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
)

// More that Swagger 2.0 cannot say, said by Convert (see convert.go) for clients and for
// linters such as Redocly's:
//   - who may call: an operation with no @Security is public (security: []); one marked
//     x-token-optional answers a spectator too (a seat token or none); the seat token is an
//     HTTP bearer token, so Swagger UI asks for the token alone and adds "Bearer ".
//   - a nullable object: Swagger 2.0 puts x-nullable beside a $ref, which OpenAPI 3.0.3 does not
//     let widen the $ref'd schema to null (see sharpenNullables).
//   - one true example per error: each error response lists the codes it may carry in its
//     description, and gets one example problem per code, checked against the one table (problem.KindOf).

// exampleID and exampleRequestID fill the examples' paths and request ids.
const (
	exampleID        = "9f90f450a2df8e5610da7196339fb2c8"
	exampleRequestID = "5f1d3c0a9b7e2f4c6a8d0e1b"
	tokenOptionalExt = "x-token-optional"
	seatTokenScheme  = "SeatToken"
	playerKeyScheme  = "PlayerKey"
)

// invalidDetails is the detail of each operation's example 400, as the server words it.
var invalidDetails = map[string]string{
	"createMatch":        `players[1].name must not hold control characters, line separators or bidirectional marks (found U+000A)`,
	"listMatches":        `status must be waiting, in_progress, finished, expired or cancelled, got "done"`,
	"listPlayerMatches":  `turn must be me, got "them"`,
	"getPlayerRatings":   `format must be one of 2p, 3p, 4p, 2v2, got "5p"`,
	"getLeaderboard":     `format must be one of 2p, 3p, 4p, 2v2, got "5p"`,
	"getMatch":           `this endpoint takes no query parameters, got "step"`,
	"makeMove":           `play needs a tile, like "tile": "4-6"`,
	"listLegalMoves":     `this endpoint takes no query parameters, got "seat"`,
	"listEvents":         `limit must be an integer from 1 to 1000, got "5000"`,
	"streamEvents":       `Last-Event-ID must be the seq of an event received, got "abc"`,
	"replayMatch":        `step must be an integer from 1 to the match's version, got "last"`,
	"getAnalysis":        `step must be an integer from 1 to the match's version, got "last"`,
	"createBranch":       `step must be an integer from 1 to the match's version 51, got 99`,
	"auditMatch":         `this endpoint takes no query parameters, got "full"`,
	"exportMatch":        `format must be json or text, got "xml"`,
	"joinSeat":           `seat must be 0, 1, 2 or 3, got "north"`,
	"leaveSeat":          `seat must be 0, 1, 2 or 3, got "north"`,
	"resumeSeat":         `seat must be 0, 1, 2 or 3, got "north"`,
	"createPlayer":       `name must not hold invisible characters such as zero-width spaces or joiners, soft hyphens, byte order marks or fillers (found U+200B)`,
	"getCurrentPlayer":   `this endpoint takes no query parameters, got "id"`,
	"rotatePlayerKey":    `this endpoint takes no query parameters, got "key"`,
	"getPlayer":          `this endpoint takes no query parameters, got "name"`,
	"getPlayerByName":    `name is required: GET /api/v1/players?name=Ada`,
	"createPlayerTicket": `this endpoint takes no query parameters, got "ttl"`,
	"createMatchTicket":  `this endpoint takes no query parameters, got "seat"`,
	"streamPlayer":       `unknown query parameter "after"; use ticket`,
	"createRematch":      `this endpoint takes no query parameters, got "seed"`,
	"createReview":       `this endpoint takes no query parameters, got "method"`,
	"getReview":          `this endpoint takes no query parameters, got "method"`,
	"declineSeat":        `seat must be 0, 1, 2 or 3, got "north"`,
	"cancelMatch":        `this endpoint takes no query parameters, got "reason"`,
	"resignMatch":        `this endpoint takes no query parameters, got "seat"`,
	// Tournaments (tournament.go).
	"createTournament": "rounds: a swiss plays 1 to 20 rounds",
	"listTournaments":  `status must be upcoming, running, finished or cancelled, got "over"`,
	"getTournament":    `this endpoint takes no query parameters, got "round"`,
	"joinTournament":   `bot "chess" is not a strategy; choose one of ` + strings.Join(slices.Sorted(slices.Values(bot.AllNames())), ", "),
	"leaveTournament":  `this endpoint takes no query parameters, got "reason"`,
	"startTournament":  `this endpoint takes no query parameters, got "at"`,
	"cancelTournament": `this endpoint takes no query parameters, got "reason"`,
	"auditTournament":  `this endpoint takes no query parameters, got "round"`,
	"exportTournament": `this endpoint takes no query parameters, got "format"`,
	"createSeek":       `format must be 2p, 3p, 4p or 2v2, not "5p"`,
	"getSeek":          `this endpoint takes no query parameters, got "status"`,
	"cancelSeek":       `this endpoint takes no query parameters, got "reason"`,
	// Puzzles (puzzle.go).
	"getNextPuzzle":       `this endpoint takes no query parameters, got "rating"`,
	"createPuzzleAttempt": `move is required: {"move": {"action": "play", "tile": "4-6", "end": "left"}}`,
	"listPlayerPuzzles":   `limit must be an integer from 1 to 100, got "500"`,
}

// problemDetails is the detail of an example problem for every other code.
var problemDetails = map[domain.Code]string{
	domain.CodeUnauthorized:          domain.ErrUnauthorized.Error(),
	problem.CodeNotFound:             "no route matches this path; /openapi.yaml lists the API's routes",
	problem.CodeMethodNotAllowed:     "this route does not take this method; the Allow header lists those it takes",
	domain.CodeMatchNotFound:         fmt.Sprintf("no match has the id %q", exampleID),
	domain.CodeNotYourTurn:           domain.ErrNotYourTurn.Error(),
	domain.CodeMatchFinished:         domain.ErrMatchFinished.Error(),
	domain.CodeVersionConflict:       (&domain.VersionConflictError{Expected: 11, Current: 12}).Error(),
	problem.CodePayloadTooLarge:      "the request body is larger than " + strconv.Itoa(middleware.DefaultBodyLimit) + " bytes",
	problem.CodeUnsupportedMediaType: "send the body as Content-Type: application/json",
	domain.CodeTileNotInHand:         domain.ErrTileNotInHand.Error(),
	domain.CodeTileDoesNotFit:        domain.ErrTileDoesNotFit.Error(),
	domain.CodeEndRequired:           domain.ErrEndRequired.Error(),
	domain.CodeMustLeadDouble:        domain.ErrMustLeadDouble.Error(),
	domain.CodeMustPlay:              domain.ErrMustPlay.Error(),
	domain.CodeMustDraw:              domain.ErrMustDraw.Error(),
	domain.CodeMustPass:              domain.ErrMustPass.Error(),
	domain.CodeIdempotencyReuse:      domain.ErrIdempotencyReuse.Error(),
	domain.CodeSeatTaken:             domain.ErrSeatTaken.Error(),
	domain.CodeInvalidInvite:         domain.ErrInvalidInvite.Error(),
	domain.CodeMatchNotStarted:       domain.ErrMatchNotStarted.Error(),
	domain.CodeMatchStarted:          domain.ErrMatchStarted.Error(),
	quota.CodeRateLimited:            "too many requests from this address; retry after 1 s",
	domain.CodeInternal:              "the server failed to answer; quote the request_id when reporting it",
	problem.CodeNotReady:             "the database does not answer",
	storeerr.CodeRecordCorrupt:       (&referee.CorruptError{MatchID: exampleID}).Error(),
	storeerr.CodeStoreBusy:           storeerr.ErrStoreBusy.Error(),
	storeerr.CodeStoreFull:           storeerr.ErrStoreFull.Error(),
	storeerr.CodeStoreUnavailable:    storeerr.ErrStoreUnavailable.Error(),
	problem.CodeUnavailable:          "the server has as many live streams open as it may; try again later",
	problem.CodeRequestTimeout:       "the request body did not arrive before the server's read timeout",
	problem.CodeHeaderTooLarge:       "the request's headers and URL are larger than " + strconv.Itoa(middleware.DefaultHeaderLimit) + " bytes",
	// The sentinel's own words: the referee returns it as it is.
	domain.CodeSeedWithOpenSeats: domain.ErrSeedWithOpenSeats.Error(),
	domain.CodeMatchNotFinished:  domain.ErrMatchNotFinished.Error(),
	reviews.CodeReviewNotFound:   reviews.ErrNotRequested.Error(),
	players.CodeNameTaken:        `name "Ada": ` + players.ErrNameTaken.Error(),
	players.CodePlayerNotFound:   fmt.Sprintf("player %q: %s", exampleID, players.ErrPlayerNotFound),
	domain.CodeAlreadySeated:     "join: " + domain.ErrAlreadySeated.Error() + ": the player holds seat 0",
	domain.CodeSeatNotReserved:   domain.ErrSeatNotReserved.Error() + ": seat 1 is kept for no one now",
	domain.CodeSeatResigned:      domain.ErrSeatResigned.Error() + ": seat 1",
	domain.CodeRematchCancelled:  "rematch " + exampleID + ": " + domain.ErrRematchCancelled.Error() + " (declined)",
	domain.CodeNotADecision:      domain.ErrNotADecision.Error() + ": event 7 was the seat's only legal move",
	// Tournaments (docs/tournaments.md, "Errors").
	domain.CodeMatchSealed:             domain.ErrMatchSealed.Error(),
	tournaments.CodeTournamentNotFound: fmt.Sprintf("no tournament has the id %q", exampleID),
	tournaments.CodeTournamentClosed:   tournaments.ErrTournamentClosed.Error() + ": it is running",
	tournaments.CodeTournamentFull:     tournaments.ErrTournamentFull.Error() + " (16)",
	tournaments.CodeAlreadyEntered:     tournaments.ErrAlreadyEntered.Error(),
	tournaments.CodeNotOrganiser:       tournaments.ErrNotOrganiser.Error(),
	tournaments.CodeTooFewEntries:      tournaments.ErrTooFewEntries.Error() + ": 1 of 2",
	seeks.CodeAlreadySeeking:           "store a seek: " + seeks.ErrAlreadySeeking.Error(),
	seeks.CodeSeekNotFound:             fmt.Sprintf("seek %q: %s", exampleID, seeks.ErrSeekNotFound),
	// Puzzles (docs/puzzles.md, "Errors").
	puzzles.CodePuzzleNotFound: puzzles.ErrPuzzleNotFound.Error(),
	puzzles.CodeNoPuzzle:       puzzles.ErrNoPuzzle.Error(),
	puzzles.CodeNotAnOption:    puzzles.ErrNotAnOption.Error(),
	puzzles.CodeNotYourPuzzles: puzzles.ErrNotYourPuzzles.Error(),
}

// sharpenSecurity makes every operation say who may call it, and the seat token and the
// player key bearer tokens.
func sharpenSecurity(doc *openapi3.T) error {
	for _, name := range []string{seatTokenScheme, playerKeyScheme} {
		scheme := doc.Components.SecuritySchemes[name]
		if scheme == nil || scheme.Value == nil {
			return fmt.Errorf("openapi: security scheme %s is missing", name)
		}
		scheme.Value = &openapi3.SecurityScheme{Type: "http", Scheme: "bearer", Description: scheme.Value.Description}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			optional := op.Extensions[tokenOptionalExt] != nil
			delete(op.Extensions, tokenOptionalExt)
			switch {
			case op.Security == nil || len(*op.Security) == 0:
				if optional {
					return fmt.Errorf("%s %s: x-token-optional without @Security", method, path)
				}
				op.Security = openapi3.NewSecurityRequirements() // public: no token
			case optional:
				op.Security.With(openapi3.SecurityRequirement{}) // or none: a spectator
			}
		}
	}
	return nil
}

// sharpenNullables makes every nullable $ref accept null. The conversion wraps the $ref in allOf
// beside nullable: true, and under OpenAPI 3.0.3 nullable only widens a type written in the same
// schema: the $ref'd schema still refuses null, and strict validators (Prism, most generated
// clients) refuse the answer. So the schema the $ref names says nullable itself when only
// nullable properties name it (the Go client keeps its named type); a schema named elsewhere too
// is copied inline into the nullable property instead.
func sharpenNullables(doc *openapi3.T) error {
	js, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("openapi: encode for nullables: %w", err)
	}
	type wrapper struct{ owner, prop string }
	nullableRefs := map[string][]wrapper{}
	for owner, schema := range doc.Components.Schemas {
		if schema.Value == nil {
			continue
		}
		for name, prop := range schema.Value.Properties {
			if p := prop.Value; p != nil && p.Nullable && len(p.AllOf) == 1 && p.AllOf[0].Ref != "" {
				nullableRefs[p.AllOf[0].Ref] = append(nullableRefs[p.AllOf[0].Ref], wrapper{owner, name})
			}
		}
	}
	for ref, wrappers := range nullableRefs {
		target := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
		if target == nil || target.Value == nil {
			return fmt.Errorf("openapi: nullable $ref %s names no schema", ref)
		}
		named := strings.Count(string(js), `"$ref":"`+ref+`"`)
		for _, w := range wrappers {
			p := doc.Components.Schemas[w.owner].Value.Properties[w.prop].Value
			p.Type = &openapi3.Types{openapi3.TypeObject}
			if named == len(wrappers) {
				continue
			}
			inline := *target.Value
			inline.Nullable, inline.Description = true, p.Description
			doc.Components.Schemas[w.owner].Value.Properties[w.prop] = openapi3.NewSchemaRef("", &inline)
		}
		if named == len(wrappers) {
			target.Value.Nullable = true
		}
	}
	return nil
}

// codePattern finds the codes an error response's description names.
var codePattern = regexp.MustCompile(`\b[A-Z][A-Z_]+[A-Z]\b`)

// sharpenProblems gives each error response one example per code its description names, and
// fails when a code is unknown or problemKinds maps it to another status.
func sharpenProblems(doc *openapi3.T, problemBody func(Problem) any) error {
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				status, err := strconv.Atoi(code)
				if err != nil || status < 400 || resp.Value == nil || resp.Value.Description == nil {
					continue
				}
				media := resp.Value.Content.Get(mimeProblem)
				if media == nil {
					return fmt.Errorf("%s %s: response %d has no %s content", method, path, status, mimeProblem)
				}
				examples, err := problemExamples(op.OperationID, path, status, *resp.Value.Description, problemBody)
				if err != nil {
					return fmt.Errorf("%s %s: response %d: %w", method, path, status, err)
				}
				media.Examples = examples
			}
		}
	}
	return nil
}

// problemExamples is one example problem per code named in desc (before any colon).
func problemExamples(opID, path string, status int, desc string, problemBody func(Problem) any) (openapi3.Examples, error) {
	names, _, _ := strings.Cut(desc, ":")
	codes := codePattern.FindAllString(names, -1)
	if len(codes) == 0 {
		return nil, fmt.Errorf("the description %q names no error code", desc)
	}
	out := openapi3.Examples{}
	for _, c := range codes {
		code := domain.Code(c)
		kStatus, title, ok := problem.KindOf(code)
		if !ok || kStatus != status {
			return nil, fmt.Errorf("code %s is not answered with status %d", c, status)
		}
		detail, ok := problemDetails[code]
		if code == domain.CodeInvalidRequest {
			detail, ok = invalidDetails[opID]
		}
		if !ok {
			return nil, fmt.Errorf("no example detail for %s in operation %q", c, opID)
		}
		p := Problem{
			Title: title, Status: status, Detail: detail,
			Instance: strings.ReplaceAll(path, "{id}", exampleID), Code: c, RequestID: exampleRequestID,
		}
		if code == domain.CodeVersionConflict {
			current := 12
			p.CurrentVersion = &current
		}
		ex := openapi3.NewExample(problemBody(p))
		ex.Summary = c + ": " + http.StatusText(status)
		out[c] = &openapi3.ExampleRef{Value: ex}
	}
	return out, nil
}
