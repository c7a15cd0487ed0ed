package notation_test

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/domain/notation"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestNotationGolden(t *testing.T) {
	tests := []struct {
		golden string
		shape  matchtest.Shape
		seed   byte
		stop   int // 0: play to the end
		viewer domain.Viewer
	}{
		// Seed 226 gives a match with passes and a blocked hand.
		{"notation_partners_finished.golden", matchtest.Shapes[3], 226, 0, domain.Spectator()},
		{"notation_two_live_seat0.golden", matchtest.Shapes[0], 47, 40, domain.SeatViewer(0)},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			// given a seeded match played with each seat's first legal move, at a fixed clock
			log := matchtest.PlayOut(t, matchtest.Spec(tt.shape, 100), matchtest.Seed(tt.seed), matchtest.FirstMove, tt.stop)
			finished := log[len(log)-1].Type == domain.TypeMatchEnded
			// when its record is written as the viewer may see it
			var buf bytes.Buffer
			if err := notation.Write(&buf, "golden", tt.viewer.RedactAll(log, finished)); err != nil {
				t.Fatal(err)
			}
			// then it reads as the golden file does
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./domain -run TestNotationGolden -update to write it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("notation differs from %s (rerun with -update if the change is meant):\n%s", path, buf.String())
			}
		})
	}
}

func TestNotationRejectsALogWithoutItsStart(t *testing.T) {
	log := matchtest.PlayOut(t, matchtest.Spec(matchtest.Shapes[0], 100), matchtest.Seed(3), matchtest.FirstMove, 10)
	tests := []struct {
		name   string
		events []domain.Event
	}{
		{"no events", nil},
		{"a log that does not open with match.created", log[1:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// given a log without its start; when it is written; then it is a 400
			err := notation.Write(&bytes.Buffer{}, "m", tt.events)
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestNotationWritesEveryViewOfRandomMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for i, shape := range matchtest.Shapes {
		t.Run(shape.Name, func(t *testing.T) {
			// given a random match, live or finished
			log := matchtest.PlayOut(t, matchtest.Spec(shape, 100), matchtest.Seed(byte(90+i)), matchtest.RandomMove(rng), 0)
			for _, part := range [][]domain.Event{log, log[:len(log)/2]} {
				finished := part[len(part)-1].Type == domain.TypeMatchEnded
				for _, v := range []domain.Viewer{domain.Spectator(), domain.SeatViewer(0)} {
					// when each viewer's record is written, then it is written, twice the same
					var a, b bytes.Buffer
					if err := notation.Write(&a, "m", v.RedactAll(part, finished)); err != nil {
						t.Fatal(err)
					}
					if err := notation.Write(&b, "m", v.RedactAll(part, finished)); err != nil {
						t.Fatal(err)
					}
					if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) {
						t.Fatalf("%d bytes, then %d different bytes", a.Len(), b.Len())
					}
				}
			}
		})
	}
}
