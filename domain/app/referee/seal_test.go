package referee_test

import (
	"context"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// TestSealedMatchRefusesASpectatorWhateverTheRange: a spectator of a sealed match is refused
// every read with ErrMatchSealed before anything of the match is looked at: match.created
// alone (limit 1), a replay step out of range (whose refusal would name the version); its
// seats read it, sealed, as ever.
func TestSealedMatchRefusesASpectatorWhateverTheRange(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	svc.SetSealer(func(context.Context, string, string) (bool, error) { return true, nil })
	spectator := domain.Spectator()
	for _, r := range [][2]int{{0, 1}, {0, 2}, {1, 1}, {99, 1}} {
		if _, _, err := svc.Events(ctx, id, spectator, r[0], r[1]); !errors.Is(err, domain.ErrMatchSealed) {
			t.Errorf("a spectator's events after %d limit %d: %v", r[0], r[1], err)
		}
	}
	for _, step := range []int{1, 99999, 0} {
		if _, _, err := svc.Replay(ctx, id, spectator, step); !errors.Is(err, domain.ErrMatchSealed) {
			t.Errorf("a spectator's replay step %d: %v", step, err)
		}
	}
	seat := seatOf(t, svc, id, c.Tokens[0].Token)
	events, _, err := svc.Events(ctx, id, seat, 0, 1)
	if err != nil || len(events) != 1 || events[0].Type != domain.TypeMatchCreated {
		t.Fatalf("the seat's match.created: %v %v", events, err)
	}
	if _, _, err := svc.Replay(ctx, id, seat, 99999); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("the seat's replay out of range: %v", err)
	}
}

// TestSealedMatchRefusesJoinDeclineAndRematch: the commands no seat of a sealed match gives
// are refused with ErrMatchSealed whoever asks, live or ended, before the credential or the
// seat is looked at; a seat's rematch of its ended match waits for the round.
func TestSealedMatchRefusesJoinDeclineAndRematch(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	sealed := true
	svc.SetSealer(func(context.Context, string, string) (bool, error) { return sealed, nil })
	check := func(when string) {
		t.Helper()
		if _, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 0, Name: "cat"}); !errors.Is(err, domain.ErrMatchSealed) {
			t.Errorf("%s: join: %v", when, err)
		}
		for _, cred := range []string{"", "garbage", c.Tokens[1].Token} {
			if _, err := svc.Decline(ctx, id, 1, cred); !errors.Is(err, domain.ErrMatchSealed) {
				t.Errorf("%s: decline with %q: %v", when, cred, err)
			}
		}
		if _, err := svc.Rematch(ctx, id, c.Tokens[0].Token); !errors.Is(err, domain.ErrMatchSealed) {
			t.Errorf("%s: a seat's rematch: %v", when, err)
		}
	}
	check("live")
	if _, err := svc.Resign(ctx, id, seatOf(t, svc, id, c.Tokens[0].Token)); err != nil {
		t.Fatal(err)
	}
	if st, err := svc.StatusOf(ctx, id); err != nil || st != domain.StatusFinished {
		t.Fatalf("after the resignation: %s %v", st, err)
	}
	check("ended")
	sealed = false
	if _, err := svc.Rematch(ctx, id, c.Tokens[0].Token); err != nil {
		t.Fatalf("the rematch once the round ended: %v", err)
	}
}

// TestUnsealedMatchAsksTheSealerOnce: a round stores its seal before any match is dealt from
// it, so a seeded match the sealer calls unsealed stays so: its reads ask the sealer once,
// where a sealed match's ask every time (its round may end).
func TestUnsealedMatchAsksTheSealerOnce(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	asked, sealed := 0, false
	svc.SetSealer(func(context.Context, string, string) (bool, error) { asked++; return sealed, nil })
	for range 5 {
		if got, err := svc.Sealed(ctx, id); err != nil || got {
			t.Fatalf("sealed %v, %v", got, err)
		}
		if _, err := svc.View(ctx, id, domain.Spectator()); err != nil {
			t.Fatal(err)
		}
	}
	if asked != 1 {
		t.Fatalf("ten reads of an unsealed match asked the sealer %d times", asked)
	}
	// Another match, of another seed, sealed: asked each time.
	other := create(t, svc, twoHumans("00"+vectorSeed[2:]))
	sealed, asked = true, 0
	for range 3 {
		if got, err := svc.Sealed(ctx, other.Match.ID); err != nil || !got {
			t.Fatalf("sealed %v, %v", got, err)
		}
	}
	if asked != 3 {
		t.Fatalf("three reads of a sealed match asked the sealer %d times", asked)
	}
}
