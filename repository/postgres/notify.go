package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Timings of Listen. idleCheck is how long the listener waits for a notification before it
// pings its connection: a connection that died quietly (a failover, a dropped NAT entry) would
// otherwise wait forever, hearing nothing.
const (
	idleCheck      = 10 * time.Second
	pingTimeout    = 5 * time.Second
	reconnectPause = time.Second
)

// Listen is the referee's Notifier port over LISTEN/NOTIFY: on a connection of its own, outside
// the pool, it listens on Channel and calls appended for every append committed to the
// database, by any instance, until ctx ends. When the connection fails it connects again after
// a pause and then calls appended("", 0), since notifications sent meanwhile are lost. It
// returns ctx's error.
// While it is not listening (before its first LISTEN and between a failure and the next),
// Ping fails: the instance would not hear other instances' moves.
func (s *Store) Listen(ctx context.Context, appended func(matchID string, version int)) error {
	s.notListening(errNotYetListening)
	defer s.listenDown.Store(nil) // a stopped listener is not a failing one
	for {
		err := s.listenOnce(ctx, appended)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The connection failed; what the caller needs is the "" call after reconnecting.
		s.notListening(err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(reconnectPause):
		}
	}
}

// listenOnce connects, listens, announces a possible gap with appended("", 0), and relays
// notifications until the connection fails or ctx ends.
func (s *Store) listenOnce(ctx context.Context, appended func(string, int)) error {
	conn, err := pgx.ConnectConfig(ctx, s.conn)
	if err != nil {
		return err
	}
	defer func() {
		closing, cancel := context.WithTimeout(context.Background(), pingTimeout)
		defer cancel()
		conn.Close(closing)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	s.listenDown.Store(nil)
	// Whatever was announced before LISTEN took effect was not heard: the first connection
	// too, since followers may have started watching before it.
	appended("", 0)
	for {
		wait, cancel := context.WithTimeout(ctx, idleCheck)
		n, err := conn.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			if id, version, ok := parsePayload(n.Payload); ok {
				appended(id, version)
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			ping, cancel := context.WithTimeout(ctx, pingTimeout)
			err = conn.Ping(ping)
			cancel()
			if err != nil {
				return err
			}
		default:
			return err
		}
	}
}

// errNotYetListening is Ping's answer while Listen has not yet had its first LISTEN.
var errNotYetListening = errors.New("not connected yet")

// notListening tells Ping that Listen is not listening, for cause.
func (s *Store) notListening(cause error) {
	if cause == nil {
		cause = errors.New("the connection ended")
	}
	err := fmt.Errorf("not listening for other instances' moves: %w", cause)
	s.listenDown.Store(&err)
}

// parsePayload reads "<version> <match id>", what Append sends, or "0 <match id>", what a key's
// rotation sends for each match whose seat tokens it revoked.
func parsePayload(p string) (id string, version int, ok bool) {
	v, id, ok := strings.Cut(p, " ")
	if !ok || id == "" {
		return "", 0, false
	}
	version, err := strconv.Atoi(v)
	return id, version, err == nil && version >= 0
}
