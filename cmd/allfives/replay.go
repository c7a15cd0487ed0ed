package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository"
)

const replayUsage = `usage: allfives replay <match id> [flags]

Prints a match's record in the text notation of docs/notation.md, or with --step N the table
as it was right after event N. It reads the database (--db) or asks a running server
(--server). Without a token it shows what a spectator may see: while the match is live no
hand; once it has ended, everything.

flags:
`

// replayTimeout bounds one request to a server.
const replayTimeout = 30 * time.Second

// replayConfig is what replay runs with.
type replayConfig struct {
	id, db, server, token string
	step                  int
}

func parseReplay(args []string, getenv func(string) string, out io.Writer) (replayConfig, error) {
	var c replayConfig
	f := newEnvFlags("replay", getenv, out)
	db := f.string("db", "ALLFIVES_DB", repository.DefaultPath, "SQLite database file to read")
	token := f.string("token", "ALLFIVES_TOKEN", "", "a seat token: show that seat's tiles while the match is live")
	server := f.fs.String("server", "", "base URL of a running server to ask instead of the database, like http://localhost:8080")
	step := f.fs.Int("step", 0, "print the table as it was right after event N (1 to the match's version) instead of the record")
	f.fs.Usage = func() {
		fmt.Fprint(f.fs.Output(), replayUsage)
		f.fs.PrintDefaults()
	}
	if err := errors.Join(f.errs...); err != nil {
		return c, err
	}
	// The id may come before or after the flags: flag stops at the first argument that is
	// not a flag, so parse what follows it again.
	var ids []string
	for {
		if err := f.fs.Parse(args); err != nil {
			return c, err
		}
		if f.fs.NArg() == 0 {
			break
		}
		ids, args = append(ids, f.fs.Arg(0)), f.fs.Args()[1:]
	}
	if len(ids) != 1 || ids[0] == "" {
		return c, fmt.Errorf("replay needs one match id, got %d arguments; run allfives replay -h", len(ids))
	}
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["db"] && set["server"] {
		return c, errors.New("replay: give --db or --server, not both")
	}
	if *step < 0 {
		return c, fmt.Errorf("replay: --step must be 1 or more, not %d", *step)
	}
	c = replayConfig{id: ids[0], db: *db, server: strings.TrimRight(*server, "/"), token: *token, step: *step}
	if set["server"] {
		u, err := url.Parse(c.server)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("replay: --server must be an http or https URL like http://localhost:8080, not %q", *server)
		}
	}
	return c, nil
}

// runReplay prints a stored match's record, or its table at one step.
func runReplay(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	c, err := parseReplay(args, getenv, stdout)
	if err != nil {
		return helpOK(err)
	}
	var src replaySource = &dbSource{path: c.db}
	if c.server != "" {
		src = &serverSource{base: c.server, client: &http.Client{Timeout: replayTimeout}}
	}
	if c.step == 0 {
		text, err := src.record(ctx, c.id, c.token)
		if err != nil {
			return err
		}
		_, err = stdout.Write(text)
		return err
	}
	event, view, err := src.replay(ctx, c.id, c.token, c.step)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, renderStep(c.step, event, view))
	return err
}

// replaySource is where a match's record comes from: the database or a server.
type replaySource interface {
	// record is the text notation of the whole record as the token's holder may see it.
	record(ctx context.Context, id, token string) ([]byte, error)
	// replay is event step and the match right after it.
	replay(ctx context.Context, id, token string, step int) (domain.Event, api.MatchView, error)
}

// dbSource reads a database file through the same service the server uses, so what it shows
// is redacted exactly as the API redacts it.
type dbSource struct{ path string }

// open opens an existing database without migrating it: a command that only reads must not
// create a file where there was none, nor change the schema of one a server is using.
func (d *dbSource) open(ctx context.Context, id, token string) (*domain.MatchService, domain.Viewer, func(), error) {
	if _, err := os.Stat(d.path); err != nil {
		return nil, domain.Viewer{}, nil, fmt.Errorf("replay: no database at %s (set --db or ALLFIVES_DB): %w", d.path, err)
	}
	store, err := repository.Open(ctx, d.path, repository.Options{NoMigrate: true})
	if err != nil {
		return nil, domain.Viewer{}, nil, err
	}
	closeStore := func() { _ = store.Close() } // read only: nothing to lose
	svc := domain.NewMatchService(domain.ServiceConfig{Store: store})
	v, err := svc.Authenticate(ctx, id, token)
	if err != nil {
		closeStore()
		return nil, domain.Viewer{}, nil, dbError(id, err)
	}
	return svc, v, closeStore, nil
}

func (d *dbSource) record(ctx context.Context, id, token string) ([]byte, error) {
	svc, v, done, err := d.open(ctx, id, token)
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := svc.Export(ctx, id, v)
	if err != nil {
		return nil, dbError(id, err)
	}
	var b strings.Builder
	if err := domain.WriteNotation(&b, id, rec.Events); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func (d *dbSource) replay(ctx context.Context, id, token string, step int) (domain.Event, api.MatchView, error) {
	svc, v, done, err := d.open(ctx, id, token)
	if err != nil {
		return domain.Event{}, api.MatchView{}, err
	}
	defer done()
	event, view, err := svc.Replay(ctx, id, v, step)
	if err != nil {
		return domain.Event{}, api.MatchView{}, dbError(id, err)
	}
	// The API's view is the domain's in its wire form: one renderer serves both sources.
	js, err := json.Marshal(view)
	if err != nil {
		return domain.Event{}, api.MatchView{}, err
	}
	var out api.MatchView
	if err := json.Unmarshal(js, &out); err != nil {
		return domain.Event{}, api.MatchView{}, err
	}
	return event, out, nil
}

// dbError words the domain's errors for the command line.
func dbError(id string, err error) error {
	switch {
	case errors.Is(err, domain.ErrMatchNotFound):
		return fmt.Errorf("replay: no match %q in the database", id)
	case errors.Is(err, domain.ErrUnauthorized):
		return fmt.Errorf("replay: the token is not a seat token of match %s", id)
	}
	return fmt.Errorf("replay: %w", err)
}

// serverSource asks a running server's API.
type serverSource struct {
	base   string
	client *http.Client
}

func (s *serverSource) get(ctx context.Context, path, token string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+path, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("replay: read the answer of %s: %w", req.URL, err)
	}
	if res.StatusCode != http.StatusOK {
		var p api.Problem
		if json.Unmarshal(body, &p) == nil && p.Code != "" {
			return nil, fmt.Errorf("replay: the server answered %d %s: %s", res.StatusCode, p.Code, p.Detail)
		}
		return nil, fmt.Errorf("replay: the server answered %s", res.Status)
	}
	return body, nil
}

func (s *serverSource) record(ctx context.Context, id, token string) ([]byte, error) {
	return s.get(ctx, "/api/v1/matches/"+url.PathEscape(id)+"/export?format=text", token)
}

func (s *serverSource) replay(ctx context.Context, id, token string, step int) (domain.Event, api.MatchView, error) {
	body, err := s.get(ctx, "/api/v1/matches/"+url.PathEscape(id)+"/replay?step="+strconv.Itoa(step), token)
	if err != nil {
		return domain.Event{}, api.MatchView{}, err
	}
	var out struct {
		Event domain.Event  `json:"event"` // the API's event JSON is the domain's wire form
		Match api.MatchView `json:"match"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return domain.Event{}, api.MatchView{}, fmt.Errorf("replay: the server's answer does not read as a replay: %w", err)
	}
	return out.Event, out.Match, nil
}

// renderStep writes the table as it was right after event step: the event, the scores, and
// while a hand is on, the line, its ends and count, whose turn it is, each seat's tiles (the
// tiles themselves when the view shows them) and the boneyard.
func renderStep(step int, e domain.Event, v api.MatchView) string {
	var b strings.Builder
	field := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-10s %s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(&b, "All Fives match %s at step %d\n", v.ID, step)
	lead := v.Hand != nil && len(v.Hand.Line) == 1
	field("event", "%d. %s", e.Seq, describe(e, lead))
	sides := make([]string, len(v.Scores))
	for i, s := range v.Scores {
		sides[i] = fmt.Sprintf("side %d %d", i, s)
	}
	field("scores", "%s (target %d)", strings.Join(sides, ", "), v.Target)
	if v.Hand == nil {
		if v.WinnerSide != nil {
			field("result", "side %d wins", *v.WinnerSide)
		}
	} else {
		h := v.Hand
		field("hand", "%d, S%d to move", h.Number, h.Turn)
		if len(h.Line) == 0 {
			field("line", "(empty)")
		} else {
			field("line", "%s", strings.Join(h.Line, " "))
			field("ends", "%s = %d", endsText(h), h.Total)
		}
		if h.BoneyardTiles != nil {
			field("boneyard", "%s: %s", tiles(h.Boneyard), strings.Join(h.BoneyardTiles, " "))
		} else {
			field("boneyard", "%s", tiles(h.Boneyard))
		}
	}
	for i, s := range v.Seats {
		label := ""
		if i == 0 {
			label = "seats"
		}
		kind := s.Kind
		if s.Bot != "" {
			kind += " (" + s.Bot + ")"
		}
		held := tiles(s.Tiles)
		switch {
		case v.Hand != nil && s.Seat < len(v.Hand.Hands):
			held += ": " + strings.Join(v.Hand.Hands[s.Seat], " ")
		case v.You != nil && v.You.Seat == s.Seat && v.Hand != nil:
			held += ": " + strings.Join(v.You.Tiles, " ")
		}
		field(label, "S%d %s, %s, side %d, %s", s.Seat, s.Name, kind, s.Side, held)
	}
	if v.You != nil {
		field("you", "S%d", v.You.Seat)
	}
	return b.String()
}

// endsText writes the ends as left|right, an end whose outermost tile is a double as that
// double (it counts twice); a lone double is written once, as the count takes it once.
func endsText(h *api.Hand) string {
	if len(h.Line) == 1 && h.Left.Double {
		return h.Line[0]
	}
	end := func(e api.OpenEnd) string {
		if e.Double {
			return fmt.Sprintf("%d-%d", e.Pip, e.Pip)
		}
		return strconv.Itoa(e.Pip)
	}
	return end(h.Left) + "|" + end(h.Right)
}

func tiles(n int) string {
	if n == 1 {
		return "1 tile"
	}
	return fmt.Sprintf("%d tiles", n)
}

// describe says in a few words what an event did.
// lead says whether a play was the hand's first.
func describe(e domain.Event, lead bool) string {
	switch d := e.Data.(type) {
	case domain.MatchCreated:
		return fmt.Sprintf("match created: %d players, target %d", len(d.Players), d.Target)
	case domain.HandStarted:
		why := "won the last hand"
		if d.Lead == domain.LeadHighestDouble {
			why = "highest double"
		}
		return fmt.Sprintf("hand %d dealt: S%d leads (%s)", d.Hand, d.Leader, why)
	case domain.TilePlayed:
		text := fmt.Sprintf("S%d plays %s %s: the ends count %d", d.Seat, d.Tile, d.End, d.Total)
		if lead {
			text = fmt.Sprintf("S%d leads %s: the ends count %d", d.Seat, d.Tile, d.Total)
		}
		if d.Points > 0 {
			text += fmt.Sprintf(", +%d", d.Points)
		}
		return text
	case domain.TileDrawn:
		if d.Tile == nil {
			return fmt.Sprintf("S%d draws (hidden)", d.Seat)
		}
		return fmt.Sprintf("S%d draws %s", d.Seat, *d.Tile)
	case domain.TurnPassed:
		return fmt.Sprintf("S%d passes", d.Seat)
	case domain.HandEnded:
		how := "blocked"
		if d.Outcome == domain.OutcomeDomino && d.Seat != nil {
			how = fmt.Sprintf("domino by S%d", *d.Seat)
		}
		who := "a tie: nobody scores"
		if d.WinnerSide != nil {
			who = fmt.Sprintf("side %d scores %d", *d.WinnerSide, d.Points)
		}
		return fmt.Sprintf("hand %d ends, %s; %s", d.Hand, how, who)
	case domain.MatchEnded:
		return fmt.Sprintf("match over: side %d wins", d.WinnerSide)
	}
	return string(e.Type)
}
