package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// TestActEncodesTheViewOnce checks that a move's encoded view is the one the caller's next
// state read gets, without encoding it again, and that only the mover's slot is filled: the
// other seat's read still encodes its own view.
func TestActEncodesTheViewOnce(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 0)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seats := map[int]domain.Viewer{}
	for _, tk := range c.Tokens {
		seats[tk.Seat] = seatOf(t, svc, id, tk.Token)
	}
	encodes := 0
	enc := func(v domain.MatchView) ([]byte, error) {
		encodes++
		b, err := json.Marshal(v)
		return append(b, '\n'), err
	}
	mover := c.Match.Turn
	if mover == nil {
		t.Fatal("no one is to move")
	}
	_, _, moves, err := svc.LegalMoves(ctx, id, seats[*mover])
	if err != nil || len(moves) == 0 {
		t.Fatalf("legal moves: %v %v", moves, err)
	}
	res, err := svc.Act(ctx, id, seats[*mover], referee.ActRequest{Move: moves[0].Move(), Encode: enc})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := enc(res.Match)
	if encodes != 2 || !bytes.Equal(res.View, want) {
		t.Fatalf("Act's view %q after %d encodes, want %q", res.View, encodes-1, want)
	}
	got, version, err := svc.EncodedView(ctx, id, seats[*mover], enc)
	if err != nil || version != res.Match.Version || !bytes.Equal(got, want) {
		t.Fatalf("state read: %q at %d (%v), want %q at %d", got, version, err, want, res.Match.Version)
	}
	if encodes != 2 {
		t.Fatalf("the state read encoded the mover's view again (%d encodes)", encodes)
	}
	other := seats[1-*mover]
	if got, _, err := svc.EncodedView(ctx, id, other, enc); err != nil || encodes != 3 || bytes.Equal(got, want) {
		t.Fatalf("the other seat's read: %d encodes, %v, same bytes as the mover's: %v", encodes, err, bytes.Equal(got, want))
	}
}
