package notation_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/domain/notation"
)

func TestNotationWritesSeatsAndTheClock(t *testing.T) {
	seed, at := matchtest.Seed(4), matchtest.Start
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "Ann", Kind: domain.Human}, {Kind: domain.Open}, {Kind: domain.Open}}, Listed: true, TurnSeconds: 30, AutoplayAfter: 1}
	m, log := matchtest.Begin(t, spec, seed, at)
	var hl domain.HandLog
	step := func(evs []domain.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if err := m.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		hl.Record(evs...)
		log = append(log, evs...)
	}
	step(m.DecideJoin(1, "Bo", at))
	step(m.DecideLeave(1, at))
	step(m.DecideJoin(1, "Cy", at))
	step(m.DecideJoin(2, "Di", at))
	step(m.DecideTimeout(at.Add(time.Hour), hl, nil))
	timedOut := log[slicesIndexTimedOut(log)].Data.(domain.TurnTimedOut).Seat
	step(m.DecideResume(timedOut, at.Add(time.Hour)))
	var buf bytes.Buffer
	if err := notation.Write(&buf, "seats", domain.Spectator().RedactAll(log, false)); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"listed        yes", "clock         30 s a turn; a seat is handed to greedy after 1 timeout in a row",
		"S1 open seat, side 1", "2. S1 joins: Bo", "3. S1 leaves", "4. S1 joins: Cy", "5. S2 joins: Di",
		"times out", "goes to greedy", "resumes",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the record lacks %q:\n%s", want, text)
		}
	}

	expired, err := domain.Start(spec, seed, at)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := domain.Resume("w", seed, expired)
	evs, err := w.DecideExpire(at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := notation.Write(&buf, "expired", append(expired, evs...)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "result        expired at seq 2 with open seats") || !strings.Contains(buf.String(), "Match expired at seq 2") {
		t.Fatalf("an expired match reads:\n%s", buf.String())
	}
}

func slicesIndexTimedOut(log []domain.Event) int {
	for i, e := range log {
		if e.Type == domain.TypeTurnTimedOut {
			return i
		}
	}
	return -1
}
