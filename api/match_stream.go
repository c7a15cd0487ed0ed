package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/ratelimit"
	"github.com/allfives/allfives/api/sse"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// DefaultHeartbeat is how often an idle stream sends a comment, so that proxies and clients
// can tell a quiet match from a dead connection.
const DefaultHeartbeat = 15 * time.Second

// streamWriteGrace is how long one write to a stream may take beyond the heartbeat interval.
// Before each write the stream moves its connection's write deadline to now + heartbeat +
// streamWriteGrace: the server's WriteTimeout would otherwise cut every stream after it, and a
// client that stops reading still loses its stream once its buffers are full for that long.
const streamWriteGrace = 30 * time.Second

// streams is what the live streams of one server share: the heartbeat interval and, for each
// http.Server they are served by, a channel closed when that server shuts down.
//
// http.Server.Shutdown waits for every request in flight, and a stream never finishes by
// itself while its match is live, so without this a shutdown would wait out its whole grace
// period. The first stream served by an http.Server registers (once) a RegisterOnShutdown
// func that closes the server's channel; every stream ends when it closes, and Shutdown then
// finds the connections idle. The http.Server comes from the request's context
// (http.ServerContextKey), so whoever runs the handler needs no extra wiring.
type streams struct {
	heartbeat time.Duration
	mu        sync.Mutex
	closing   map[*http.Server]chan struct{}
	players   *referee.PlayerHub // the players' streams' hub, made on first use
}

// hub is the hub of the players' streams, made on first use.
func (st *streams) hub(svc *referee.MatchService) *referee.PlayerHub {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.players == nil {
		st.players = referee.NewPlayerHub(svc)
	}
	return st.players
}

func newStreams(heartbeat time.Duration) *streams {
	if heartbeat <= 0 {
		heartbeat = DefaultHeartbeat
	}
	return &streams{heartbeat: heartbeat, closing: map[*http.Server]chan struct{}{}}
}

// shutdown returns a channel closed when the http.Server serving r shuts down; nil (never
// ready) when r was not served by an http.Server, as in tests calling ServeHTTP directly.
func (st *streams) shutdown(r *http.Request) <-chan struct{} {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	ch, ok := st.closing[srv]
	if !ok {
		ch = make(chan struct{})
		st.closing[srv] = ch
		srv.RegisterOnShutdown(func() { close(ch) })
	}
	return ch
}

// stream follows a match live as server-sent events.
//
//	@Summary			Follow a match live
//	@ID					streamEvents
//	@Description		Server-sent events (text/event-stream): every event of the match as the caller may see it, in seq order, then each new one as it happens. Each event is sent as three lines, `id: {seq}`, `event: {type}` and `data: {the event as JSON, as GET /events shows it}`. To resume after a disconnect send Last-Event-ID (EventSource does so by itself) or ?after=N: the stream goes on from the next event, with no gap and no duplicate; Last-Event-ID wins over after. With ?view=1 each event's data also carries "match": the caller's view of the match right after that event (as GET /matches/{id} shows it), so a client need not re-derive the turn or read the match after every event. An idle stream sends a comment (": ping") every 15 seconds. The stream ends after match.ended (or match.expired); a stream asked for a finished match with nothing left to send answers 204, which tells EventSource to stop reconnecting, and a stream asked to start beyond the end of a live match ends when the match does. Streams are capped in all and per client address (serve's --max-streams and --max-streams-per-client): beyond the caps a stream is refused 503 UNAVAILABLE or 429 RATE_LIMITED, with Retry-After. The seat token (or the key of the seat's player) goes in Authorization. EventSource cannot send headers: it sends ?ticket=, a single-use ticket from POST /api/v1/matches/{id}/tickets, good for one stream opened within 60 seconds, on any instance (?token=, the seat token in the URL, still works for old clients, but a URL ends up in access logs). A bad token, or a ticket used, expired or of another match, is 401 before the stream starts; a stream opened with a ticket ends as one opened with its credential does. While the match is live no stream carries another seat's tiles, and a stream opened with a seat's token ends with the seat.left of that seat: it holds its view only while its token holds the seat (docs/api-matches.md, "When a seat changes hands").
//	@Tags				matches
//	@Produce			event-stream
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id				path		string	true	"match id"
//	@Param				after			query		int		false	"start after this seq"	minimum(0)	default(0)
//	@Param				token			query		string	false	"the seat token, for clients that cannot send Authorization"
//	@Param				ticket			query		string	false	"a single-use ticket from POST /api/v1/matches/{id}/tickets, for clients that cannot send Authorization"
//	@Param				view			query		int		false	"1: each event carries the caller's view after it, as match"	Enums(0, 1)
//	@Param				Last-Event-ID	header		string	false	"the id of the last event received; resumes after it"
//	@Success			200				{string}	string	"the events, as server-sent events"
//	@Success			204				"the match has finished and every event up to match.ended has been sent"
//	@Failure			400				{object}	Problem	"INVALID_REQUEST: a bad after or Last-Event-ID, or a credential given twice"
//	@Failure			401				{object}	Problem	"UNAUTHORIZED: a token that is not this match's, or a ticket used, expired or of another match"
//	@Failure			404				{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure			409				{object}	Problem	"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Failure			429				{object}	Problem	"RATE_LIMITED: too many requests, or this client address has as many streams open as it may; Retry-After says when to try again"
//	@Failure			503				{object}	Problem	"STORE_BUSY: the store stayed locked beyond its timeout, or UNAVAILABLE: the server has as many streams open as it may; Retry-After says when to retry"
//	@Router				/api/v1/matches/{id}/stream [get]
func (s *server) stream(c echo.Context) error {
	release, err := s.takeStream(c)
	if err != nil {
		return err
	}
	defer release()
	q, err := query(c, "after", "token", "ticket", "view")
	if err != nil {
		return err
	}
	withViews := false
	switch q.Get("view") {
	case "1", "true":
		withViews = true
	case "", "0", "false":
	default:
		return domain.Invalidf("view must be 1 (send the caller's view with each event) or 0, got %q", clip(q.Get("view")))
	}
	after, err := resumePoint(c, q)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	check, err := s.matchStreamCheck(c, q, id)
	if err != nil {
		return err
	}
	v := domain.Spectator()
	if check != nil {
		if v, err = check(ctx); err != nil {
			return err
		}
	}
	// Watch before the first read: an append landing between a read and the wait still
	// leaves a wake-up behind.
	wake, stop := s.svc.Watch(id)
	defer stop()
	f := &feed{svc: s.svc, id: id, check: check, v: v, wake: wake}
	if withViews {
		f.tracker = &referee.Tracker{}
	}
	// The status before the events: if the match ends in between, match.ended is in them.
	view, err := s.svc.View(ctx, id, v)
	if err != nil {
		return err
	}
	events, err := f.after(ctx, after)
	if err != nil {
		return err
	}
	if len(events) == 0 && (view.Status == domain.StatusFinished || view.Status == domain.StatusExpired || view.Status == domain.StatusCancelled) {
		return c.NoContent(http.StatusNoContent)
	}
	sw, err := s.startSSE(c)
	if err != nil {
		return nil // the client is gone; nothing is left to tell it
	}
	return s.follow(c, sw, f, events, after)
}

// resumePoint is the seq a stream goes on after. Last-Event-ID wins over ?after=: EventSource
// sends the header when it reconnects, but keeps the URL it started with.
func resumePoint(c echo.Context, q url.Values) (int, error) {
	after, err := intParam(q, "after", 0, 0, 1<<31-1)
	if err != nil {
		return 0, err
	}
	if h := strings.TrimSpace(c.Request().Header.Get("Last-Event-ID")); h != "" {
		n, err := strconv.Atoi(h)
		if err != nil || n < 0 {
			return 0, domain.Invalidf("Last-Event-ID must be the seq of an event received, got %q", clip(h))
		}
		after = n
	}
	return after, nil
}

// streamToken is the seat token from Authorization or from ?token=, since EventSource cannot
// send headers. Given both ways it is refused rather than one of them silently chosen.
func streamToken(c echo.Context, q url.Values) (string, error) {
	token, err := bearer(c)
	if err != nil {
		return "", err
	}
	if !q.Has("token") {
		return token, nil
	}
	if token != "" {
		return "", domain.Invalidf("send the seat token once: in Authorization or in ?token=, not both")
	}
	if token = q.Get("token"); token == "" {
		return "", fmt.Errorf("%w: ?token= is empty; leave it out to follow as a spectator", domain.ErrUnauthorized)
	}
	return token, nil
}

// startSSE starts the stream: its 200 and headers, at once.
func (s *server) startSSE(c echo.Context) (*sse.Writer, error) {
	return sse.Start(c.Response(), s.streams.heartbeat+streamWriteGrace)
}

// sendEvent writes one event as the caller may see it.
func sendEvent(sw *sse.Writer, se sseEvent) error {
	e := se.Event
	out := StreamEvent{Event: ToEvents([]domain.Event{e})[0]}
	if se.view != nil {
		v := ToMatchView(*se.view)
		out.Match = &v
	}
	return sw.Event(e.Seq, string(e.Type), out)
}

// send writes events and flushes them. done says the stream is over: match.ended (or
// match.expired, or match.cancelled) is sent, or the client is gone.
func send(sw *sse.Writer, events []sseEvent) (last int, done bool) {
	for _, e := range events {
		if err := sendEvent(sw, e); err != nil {
			return last, true
		}
		last = e.Seq
		if e.Type == domain.TypeMatchEnded || e.Type == domain.TypeMatchExpired || e.Type == domain.TypeMatchCancelled {
			_ = sw.Flush()
			return last, true
		}
	}
	return last, sw.Flush() != nil
}

// follow sends events, which come after seq last, then every new one, until match.ended has
// been sent, the client leaves or the server shuts down. An idle stream sends heartbeats.
func (s *server) follow(c echo.Context, sw *sse.Writer, f *feed, events []sseEvent, last int) error {
	ctx := c.Request().Context()
	heartbeat := time.NewTicker(s.streams.heartbeat)
	defer heartbeat.Stop()
	shutdown := s.streams.shutdown(c.Request())
	var err error
	for {
		for len(events) > 0 {
			var done bool
			if last, done = send(sw, events); done || f.lost {
				return nil
			}
			if events, err = f.after(ctx, last); err != nil {
				return s.streamFailed(c, err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-shutdown:
			return nil
		case <-heartbeat.C:
			// A credential can end without an append to wake the stream: check it here too.
			if f.held(ctx) != nil {
				return nil
			}
			if err := sw.Comment("ping"); err != nil {
				return nil
			}
		case <-f.wake:
			if events, err = f.after(ctx, last); err != nil {
				return s.streamFailed(c, err)
			}
			// A stream asked to start beyond match.ended never sees it: it ends once the
			// match has ended and nothing is left after its position. The match may have ended
			// between the read and the check, so once it is seen finished the log is read
			// again: only a read begun after the end can say nothing is left.
			if len(events) == 0 && f.finished(ctx) {
				if events, err = f.after(ctx, last); err != nil {
					return s.streamFailed(c, err)
				}
				if len(events) == 0 {
					return nil
				}
			}
		}
	}
}

// streamFailed ends a stream whose read failed after it started: the status is sent, so the
// error can only be logged; a client that left is not an error at all.
func (s *server) streamFailed(c echo.Context, err error) error {
	if c.Request().Context().Err() != nil || errors.Is(err, errSeatLost) {
		return nil
	}
	return err // handleError logs it and, the response being committed, writes nothing
}

// takeStream counts the request's stream against the caps, by the bucket of its address.
func (s *server) takeStream(c echo.Context) (func(), error) {
	return s.caps.Take(ratelimit.Bucket(c.RealIP()))
}
