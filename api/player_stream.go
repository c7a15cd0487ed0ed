package api

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

// playerStreamMatches bounds the live matches (in progress or waiting) a player's stream
// follows from its start, its turns first: far more than anyone plays at once.
const playerStreamMatches = 1000

// Event names of the player's stream (docs/api-players.md, "Players").
const (
	playerEventSnapshot  = "snapshot"
	playerEventTurn      = "turn"
	playerEventChallenge = "challenge"
	playerEventJoined    = "joined"
	playerEventStarted   = "started"
	playerEventEnded     = "ended"
	playerEventRematch   = "rematch"
	// A match cancelled before it started (docs/api-matches.md, "Consent"): declined (by the one a
	// seat was reserved for), then cancelled (for every reason).
	playerEventDeclined  = "declined"
	playerEventCancelled = "cancelled"
	// A seek of the player's paired into a match (docs/matchmaking.md), told before the
	// match's other events.
	playerEventMatched = "matched"
)

// PlayerSnapshot is the first event of the player's stream: where it is the player's turn, and
// the challenges it has not taken yet, newest first.
type PlayerSnapshot struct {
	// Turns are the matches in progress where it is the player's turn.
	Turns []PlayerMatchItem `json:"turns"`
	// Challenges are the waiting matches with a seat reserved for the player, not yet joined.
	Challenges []PlayerMatchItem `json:"challenges"`
}

// PlayerEvent is the data of every event of the player's stream after the snapshot: what
// happened in one match the player is seated in, or challenged to.
type PlayerEvent struct {
	// Match is the match the event is about; for rematch, the finished match.
	Match string `json:"match" example:"9f90f450a2df8e5610da7196339fb2c8"`
	// Seat is the player's seat in the match (for rematch, in the next match).
	Seat int `json:"seat"`
	// Version is the match's version when the event was seen (turn: send it as If-Match).
	Version int `json:"version,omitempty"`
	// JoinedSeat and Name are the seat taken and its name (joined).
	JoinedSeat *int   `json:"joined_seat,omitempty"`
	Name       string `json:"name,omitempty"`
	// Status is how the match ended (ended): finished or expired; cancelled (cancelled).
	Status string `json:"status,omitempty" enums:"finished,expired,cancelled"`
	// WinnerSide is the side that won (ended, when finished).
	WinnerSide *int `json:"winner_side,omitempty"`
	// NextMatchID is the rematch of the finished match (rematch).
	NextMatchID string `json:"next_match_id,omitempty"`
	// BySeat is the seat that declined or withdrew (declined, cancelled; absent when an offer
	// expired); Reason why the match was cancelled (cancelled).
	BySeat *int   `json:"by_seat,omitempty"`
	Reason string `json:"reason,omitempty" enums:"declined,withdrawn,offer_expired,tournament_cancelled"`
	// Tournament and Round say which tournament's round (round, tournament_ended); Seat is -1
	// and Match empty for a bye.
	Tournament string `json:"tournament,omitempty"`
	Round      int    `json:"round,omitempty"`
	// Seek is the player's seek the match was made from (matched).
	Seek string `json:"seek,omitempty" example:"5b1f0c2ad4e6f7a8b9c0d1e2f3a4b5c6"`
}

// playerStream follows the caller's matches live.
//
//	@Summary			Follow the caller's matches live
//	@ID					streamPlayer
//	@Description		Server-sent events (text/event-stream) about every match the player is seated in or challenged to, on whichever instance it happens. The first event is `snapshot`: the matches where it is the player's turn and the open challenges to it (PlayerSnapshot). Then, as they happen, each as `event: {name}` and `data: {PlayerEvent as JSON}`: `turn` (it is the player's turn at this version: sent when the turn comes to the player, and again after each change of the match while it stays so; send version as If-Match), `challenge` (a seat was reserved for the player), `joined` (a seat of the match was taken, the player's own included; joined_seat and name say which), `started` (the first hand was dealt), `ended` (the match finished or expired), `rematch` (a rematch of a finished match was offered: next_match_id, and the player's seat in it, which waits for the player to accept with POST /api/v1/matches/{id}/rematch or decline), `declined` (the one a seat was reserved for declined it: by_seat), `cancelled` (the match was cancelled: before it started, reason declined, withdrawn or offer_expired, and by_seat; or with its tournament, reason tournament_cancelled) and `matched` (a seek of the player's was paired into the match: seek, and the player's seat; sent before the match's other events). A match new to the stream (a challenge, a match created or joined elsewhere, a rematch) is told as its change from the match as created: challenge, rematch or joined (the player's own seat, taken at the create) first, then joined for each seat taken since, started once dealt, turn, ended. Events carry no id: a client that reconnects gets a fresh snapshot. An idle stream sends a comment (": ping") every 15 seconds. The key goes in Authorization or, for EventSource, which cannot send headers, ?ticket= carries a single-use ticket from POST /api/v1/players/me/tickets. The stream ends when the key is rotated. Streams are capped as match streams are: beyond the caps 503 UNAVAILABLE or 429 RATE_LIMITED, with Retry-After.
//	@Tags				players
//	@Produce			event-stream
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				ticket	query		string	false	"a single-use ticket from POST /api/v1/players/me/tickets, instead of the key in Authorization"
//	@Success			200		{string}	string	"the events, as server-sent events"
//	@Failure			400		{object}	Problem	"INVALID_REQUEST: a ticket and a key both"
//	@Failure			401		{object}	Problem	"UNAUTHORIZED: no key or ticket, a key not valid, or a ticket used, expired or not for this stream"
//	@Failure			429		{object}	Problem	"RATE_LIMITED: too many requests, or this client address has as many streams open as it may; Retry-After says when to try again"
//	@Failure			503		{object}	Problem	"UNAVAILABLE: the server has as many streams open as it may; Retry-After says when to retry"
//	@Router				/api/v1/players/me/stream [get]
func (s *server) playerStream(c echo.Context) error {
	release, err := s.takeStream(c)
	if err != nil {
		return err
	}
	defer release()
	q, err := query(c, "ticket")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var who string
	var keyHash []byte
	if q.Has("ticket") {
		if len(c.Request().Header.Values(echo.HeaderAuthorization)) > 0 {
			return domain.Invalidf("send one credential: the key in Authorization, or a ticket in ?ticket=, not both")
		}
		t, err := s.redeem(c, "", q.Get("ticket"))
		if err != nil {
			return err
		}
		who, keyHash = t.Player, t.Credential
	} else {
		key, err := playerKey(c)
		if err != nil {
			return err
		}
		p, err := s.players.Authenticate(ctx, key)
		if err != nil {
			return err
		}
		who, keyHash = p.ID, players.HashCredential(key)
	}
	pf := &playerFeed{s: s, player: who, keyHash: keyHash, known: map[string]*matchState{}}
	if err := pf.held(ctx); err != nil {
		return err
	}
	// Subscribe before the first read: an announcement landing between the two is kept.
	sub, leave := s.streams.hub(s.svc).Subscribe(who)
	defer leave()
	notes, unnote := s.notices.subscribe(who) // tournament_stream.go
	defer unnote()
	snap, err := pf.load(ctx)
	if err != nil {
		return err
	}
	sw, err := s.startSSE(c)
	if err != nil {
		return nil
	}
	if sw.Named(playerEventSnapshot, snap) != nil || sw.Flush() != nil {
		return nil
	}
	heartbeat := time.NewTicker(s.streams.heartbeat)
	defer heartbeat.Stop()
	shutdown := s.streams.shutdown(c.Request())
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-shutdown:
			return nil
		case <-heartbeat.C:
			if pf.held(ctx) != nil || sw.Comment("ping") != nil {
				return nil
			}
		case e := <-notes:
			if sw.Named(e.name, e.data) != nil || sw.Flush() != nil {
				return nil
			}
		case <-sub.Wake():
			if pf.held(ctx) != nil {
				return nil
			}
			pending, resync := sub.Take()
			// A head check of its own for each look: the request's would let a later read trust
			// a check made before the announcement, and serve a copy the store has passed.
			events, err := pf.seen(referee.OneHeadCheck(ctx), pending, resync)
			if err != nil {
				return s.streamFailed(c, err)
			}
			for _, e := range events {
				if sw.Named(e.name, e.data) != nil {
					return nil
				}
			}
			if len(events) > 0 && sw.Flush() != nil {
				return nil
			}
		}
	}
}

// playerFeed is what a player's stream knows of the player's matches, to tell what changed.
type playerFeed struct {
	s       *server
	player  string
	keyHash []byte // the SHA-256 of the key the stream was opened with (or its ticket's)
	known   map[string]*matchState
}

// matchState is a match as the player's stream last saw it.
type matchState struct {
	seat      int
	status    domain.Status
	version   int
	turn      int    // -1: no one's
	held      []bool // by seat: taken (not open)
	challenge bool   // the player's seat is reserved for it and not yet taken
}

type namedEvent struct {
	name string
	data PlayerEvent
}

// held checks the stream's key again: rotated away, it ends the stream.
func (pf *playerFeed) held(ctx context.Context) error {
	return pf.s.players.KeyHeld(ctx, pf.player, pf.keyHash)
}

// load reads the player's live matches into known and returns the snapshot: first the matches
// where it is the player's turn, then its other matches in progress, then the waiting ones,
// playerStreamMatches in all. Turns come first so that no number of other matches, however
// new, pushes one of them out.
func (pf *playerFeed) load(ctx context.Context) (PlayerSnapshot, error) {
	snap := PlayerSnapshot{Turns: []PlayerMatchItem{}, Challenges: []PlayerMatchItem{}}
	left := playerStreamMatches
	for _, q := range []referee.PlayerMatchQuery{
		{Player: pf.player, Turn: true, Limit: 100, Own: true},
		{Player: pf.player, Status: domain.StatusInProgress, Limit: 100, Own: true},
		{Player: pf.player, Status: domain.StatusWaiting, Limit: 100, Own: true},
	} {
		for left > 0 {
			page, err := pf.s.svc.PlayerMatches(ctx, q)
			if err != nil {
				return PlayerSnapshot{}, err
			}
			for _, m := range page.Matches {
				if pf.known[m.ID] != nil || left == 0 {
					continue // a turn, read again among the matches in progress
				}
				left--
				st := stateOfSummary(m.Seat, m.Summary)
				pf.known[m.ID] = st
				item := PlayerMatchItem{HistoryItem: toHistoryItem(m.HistoryItem), Seat: m.Seat}
				switch {
				case st.myTurn():
					snap.Turns = append(snap.Turns, item)
				case st.challenge:
					snap.Challenges = append(snap.Challenges, item)
				}
			}
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
	}
	return snap, nil
}

// seen reads the matches announced and returns the events their changes make; with resync,
// every live match of the player is read again too.
func (pf *playerFeed) seen(ctx context.Context, pending map[string]referee.MatchPlayers, resync bool) ([]namedEvent, error) {
	var out []namedEvent
	if resync {
		for id, st := range pf.known {
			if st.status == domain.StatusWaiting || st.status == domain.StatusInProgress {
				if _, ok := pending[id]; !ok {
					pending[id] = referee.MatchPlayers{Seats: []referee.SeatPlayer{{Seat: st.seat, Player: pf.player}}}
				}
			}
		}
		// Matches created meanwhile: the newest of the player's live matches.
		for _, status := range []domain.Status{domain.StatusInProgress, domain.StatusWaiting} {
			page, err := pf.s.svc.PlayerMatches(ctx, referee.PlayerMatchQuery{Player: pf.player, Status: status, Limit: 100, Own: true})
			if err != nil {
				return nil, err
			}
			for _, m := range page.Matches {
				if _, ok := pending[m.ID]; !ok {
					pending[m.ID] = referee.MatchPlayers{Seats: []referee.SeatPlayer{{Seat: m.Seat, Player: pf.player}}}
				}
			}
		}
	}
	ids := make([]string, 0, len(pending))
	for id := range pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		mp := pending[id]
		seat := -1
		for _, sp := range mp.Seats {
			if sp.Player == pf.player {
				seat = sp.Seat
			}
		}
		if seat < 0 {
			continue // the player left the match, or gave a challenge up
		}
		v, err := pf.s.svc.View(ctx, id, domain.Spectator())
		if errors.Is(err, domain.ErrMatchSealed) {
			// A sealed match (docs/tournaments.md) is read by its seats only: the player's own.
			v, err = pf.s.svc.View(ctx, id, domain.SeatViewer(seat))
		}
		if err != nil {
			continue // gone, or not readable now: the next announcement reads it again
		}
		var created *matchState
		if pf.known[id] == nil {
			if created, err = pf.createdState(ctx, id, seat); err != nil {
				continue // not readable now: the next announcement reads it again
			}
			out = append(out, pf.matched(ctx, id, seat)...) // player_stream_matched.go
		}
		out = append(out, pf.observe(id, mp.RematchOf, stateOfView(seat, v), created, v)...)
	}
	return out, nil
}

// observe records st as match id's state and returns the events its change makes.
// created is the match as it was created, the state a match new to the stream is told from.
func (pf *playerFeed) observe(id, rematchOf string, st, created *matchState, v domain.MatchView) []namedEvent {
	prev := pf.known[id]
	pf.known[id] = st
	ev := func(name string) namedEvent { return namedEvent{name, PlayerEvent{Match: id, Seat: st.seat}} }
	var out []namedEvent
	if prev == nil {
		// New to the stream: told as the change from the match as it was created, whatever
		// happened between then and the stream's first look (announcements coalesce), so that
		// its events never depend on how they were batched.
		prev = created
		switch {
		case rematchOf != "":
			e := ev(playerEventRematch)
			e.data.Match, e.data.NextMatchID = rematchOf, id
			out = append(out, e)
		case st.challenge:
			out = append(out, ev(playerEventChallenge))
		case st.seat < len(prev.held) && prev.held[st.seat]:
			// A seat the player took at the create, on another connection ("me").
			e := ev(playerEventJoined)
			e.data.JoinedSeat, e.data.Name = &st.seat, v.Seats[st.seat].Name
			out = append(out, e)
		}
	}
	for i := range st.held {
		if st.held[i] && (i >= len(prev.held) || !prev.held[i]) {
			e := ev(playerEventJoined)
			seat := i
			e.data.JoinedSeat, e.data.Name = &seat, v.Seats[i].Name
			out = append(out, e)
		}
	}
	if prev.status == domain.StatusWaiting && st.status != domain.StatusWaiting && st.status != domain.StatusExpired && st.status != domain.StatusCancelled {
		out = append(out, ev(playerEventStarted))
	}
	if st.status == domain.StatusCancelled && prev.status != domain.StatusCancelled && v.Cancelled != nil {
		out = append(out, cancelEvents(ev, *v.Cancelled)...)
	}
	if st.myTurn() && (!prev.myTurn() || prev.version != st.version) {
		e := ev(playerEventTurn)
		e.data.Version = st.version
		out = append(out, e)
	}
	if st.over() && !prev.over() {
		e := ev(playerEventEnded)
		e.data.Status, e.data.WinnerSide = string(st.status), v.WinnerSide
		out = append(out, e)
	}
	return out
}

// createdState is match id as its match.created made it: the seats held from the start (the
// creator's, bots', anonymous humans'), waiting when any was open. It is read as the player's
// seat reads it, so that a sealed match of the player's own is read too.
func (pf *playerFeed) createdState(ctx context.Context, id string, seat int) (*matchState, error) {
	events, _, err := pf.s.svc.Events(ctx, id, domain.SeatViewer(seat), 0, 1)
	if err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("match %s has no match.created", id)
	}
	mc, ok := events[0].Data.(domain.MatchCreated)
	if !ok {
		return nil, fmt.Errorf("match %s opens with %s", id, events[0].Type)
	}
	st := &matchState{seat: seat, status: domain.StatusInProgress, turn: -1, held: make([]bool, len(mc.Players))}
	for i, p := range mc.Players {
		if st.held[i] = p.Kind != domain.Open; !st.held[i] {
			st.status = domain.StatusWaiting
		}
	}
	return st, nil
}

func (st *matchState) myTurn() bool {
	return st.status == domain.StatusInProgress && st.turn == st.seat
}

func (st *matchState) over() bool {
	return st.status == domain.StatusFinished || st.status == domain.StatusExpired
}

// stateOfSummary is the state of a listed match the player holds (or is challenged to) seat in.
func stateOfSummary(seat int, sum domain.Summary) *matchState {
	held := make([]bool, len(sum.Players))
	for i, p := range sum.Players {
		held[i] = p.Kind != domain.Open
	}
	return newMatchState(seat, sum.Status, sum.Version, sum.Turn, held)
}

// stateOfView is the state of a match as a spectator's view shows it.
func stateOfView(seat int, v domain.MatchView) *matchState {
	held := make([]bool, len(v.Seats))
	for i, s := range v.Seats {
		held[i] = s.Kind != domain.Open
	}
	return newMatchState(seat, v.Status, v.Version, v.Turn, held)
}

// newMatchState is the state of a match whose seats are held or open as held says: the
// player's seat is a challenge while it is open in a match that waits.
func newMatchState(seat int, status domain.Status, version int, turn *int, held []bool) *matchState {
	st := &matchState{seat: seat, status: status, version: version, turn: -1, held: held}
	if turn != nil {
		st.turn = *turn
	}
	st.challenge = seat < len(held) && !held[seat] && status == domain.StatusWaiting
	return st
}
