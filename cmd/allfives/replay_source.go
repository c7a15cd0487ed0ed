package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/notation"
	"github.com/allfives/allfives/repository/postgres"
)

// dbSource reads a database file through the same service the server uses, so what it shows
// is redacted exactly as the API redacts it.
type dbSource struct{ path string }

// open opens an existing database without migrating it: a command that only reads must not
// create a file where there was none, nor change the schema of one a server is using.
func (d *dbSource) open(ctx context.Context, id, token string) (*referee.MatchService, domain.Viewer, func(), error) {
	if _, err := os.Stat(d.path); err != nil && !postgres.IsURL(d.path) {
		return nil, domain.Viewer{}, nil, fmt.Errorf("replay: no database at %s (set --db or ALLFIVES_DB): %w", d.path, err)
	}
	store, err := openStore(ctx, storeConfig{db: d.path})
	if err != nil {
		return nil, domain.Viewer{}, nil, err
	}
	release := func() { _ = store.Close() } // read only: nothing to lose
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store})
	v, err := svc.Authenticate(ctx, id, token)
	if err != nil {
		release()
		return nil, domain.Viewer{}, nil, dbError(id, err)
	}
	return svc, v, release, nil
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
	if err := notation.Write(&b, id, rec.Events); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func (d *dbSource) replay(ctx context.Context, id, token string, step int) (api.Event, api.MatchView, error) {
	svc, v, done, err := d.open(ctx, id, token)
	if err != nil {
		return api.Event{}, api.MatchView{}, err
	}
	defer done()
	event, view, err := svc.Replay(ctx, id, v, step)
	if err != nil {
		return api.Event{}, api.MatchView{}, dbError(id, err)
	}
	// The API's wire form: one renderer serves both sources.
	return api.ToEvents([]domain.Event{event})[0], api.ToMatchView(view), nil
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

func (s *serverSource) replay(ctx context.Context, id, token string, step int) (api.Event, api.MatchView, error) {
	body, err := s.get(ctx, "/api/v1/matches/"+url.PathEscape(id)+"/replay?step="+strconv.Itoa(step), token)
	if err != nil {
		return api.Event{}, api.MatchView{}, err
	}
	var out api.ReplayResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return api.Event{}, api.MatchView{}, fmt.Errorf("replay: the server's answer does not read as a replay: %w", err)
	}
	return out.Event, out.Match, nil
}
