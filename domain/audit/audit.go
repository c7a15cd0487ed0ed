package audit

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
)

// The names of the audit's checks, stable like event types: clients may switch on them.
const (
	CheckHashChain = "hash_chain"
	CheckRules     = "rules"
	CheckReadModel = "read_model"
	CheckSeed      = "seed"
	CheckDeals     = "deals"
)

// Report says, check by check, whether a match's stored record holds up (docs/api-records.md,
// "Replay, audit and export"). FirstBadSeq is the earliest event any check found at fault; it is nil when every
// event holds, including when only the read model is wrong, which is no event's fault.
//
// A live match is audited as far as it is public: the hash chain, the rules and the read model
// are checked, but its deals are checked only for consistency (each is a shuffle of the 28
// tiles, dealt in the right sizes, led by the right seat), because re-deriving them needs the
// secret seed. The seed and deals checks appear once match.ended has revealed the seed.
type Report struct {
	OK          bool
	Events      int
	HeadHash    string
	FirstBadSeq *int
	Checks      []Check
}

// Check is one check of an audit. FirstBadSeq names the first event the check found at
// fault, when the fault lies in an event.
type Check struct {
	Name        string
	OK          bool
	Detail      string
	FirstBadSeq *int
}

// LogRead is a match's log as a store gave it: the events it could decode, in order, and
// when it stopped, the seq it could not read and why. An audit reports an unreadable event as
// a fault at that seq rather than failing, since a damaged record is what audits look for.
type LogRead struct {
	Events     []domain.Event
	Unreadable int // 0 when every event was read
	Err        error
}

// Events checks what a log shows on its own: that it follows the rules and, once the seed
// is revealed, that the seed matches its commitment and every deal re-derives from it. Anyone
// holding a finished match's exported events can run it. v decides how much of a live match's
// hidden tiles a failure's detail may show.
//
// Without the autoplay strategy, the moves of timed-out turns and of seats on autoplay are
// checked for legality only; EventsWith checks them against the strategy's choices.
func Events(id string, log LogRead, v domain.Viewer) []Check {
	return EventsWith(id, log, v, nil)
}

// EventsWith is Events with the autoplay strategy (domain.AutoplayBot), given through the
// referee's Strategy port: every move played for a timed-out or autoplayed seat must then be
// exactly its choice on the seat's view.
func EventsWith(id string, log LogRead, v domain.Viewer, choose domain.Chooser) []Check {
	checks, _ := auditLog(id, log, v, choose)
	return checks
}

// auditLog runs the log's own checks and returns the fold of the whole log, or nil when it
// does not follow the rules.
func auditLog(id string, log LogRead, v domain.Viewer, choose domain.Chooser) ([]Check, *domain.Match) {
	ended := revealOf(log.Events)
	finished := ended >= 0
	rules, fold := auditRules(id, log, v, finished, choose)
	checks := []Check{rules}
	if finished {
		seed, seedCheck := auditSeed(log.Events, ended)
		checks = append(checks, seedCheck, auditDeals(log.Events, seed, seedCheck.OK))
	}
	return checks, fold
}

// Closed says whether a log is over and holds nothing hidden any more: it ends with
// match.ended, which reveals every hand and the seed; with match.expired or match.cancelled
// before any hand is dealt; or with the match.cancelled of a tournament's cancel after a
// deal, which reveals the seed as match.ended does. Only a closed log's stored payloads and
// hashes may leave the server (docs/api-records.md, "Verifying an export").
func Closed(events []domain.Event) bool {
	if len(events) == 0 {
		return false
	}
	switch last := events[len(events)-1]; last.Type {
	case domain.TypeMatchEnded:
		return true
	case domain.TypeMatchExpired, domain.TypeMatchCancelled:
		if c, ok := last.Data.(domain.MatchCancelled); ok && c.Seed != "" {
			return true
		}
		return !slices.ContainsFunc(events, func(e domain.Event) bool { return e.Type == domain.TypeHandStarted })
	}
	return false
}

// revealOf returns the index of the first event in events that reveals the seed, or -1: the
// match.ended, or the match.cancelled of a tournament's cancel after a deal.
func revealOf(events []domain.Event) int {
	return slices.IndexFunc(events, func(e domain.Event) bool {
		c, ok := e.Data.(domain.MatchCancelled)
		return e.Type == domain.TypeMatchEnded || (ok && c.Seed != "")
	})
}

// Stored assembles the full report of a stored match: the store's chain report, the log's own
// checks, the read model against the fold, and the side rows (seats, idempotency records,
// the stored seed) against the log. choose is the autoplay strategy, as in EventsWith (nil:
// timed-out turns are checked for legality only).
func Stored(id string, chain ChainReport, rows SideRows, log LogRead, v domain.Viewer, choose domain.Chooser) Report {
	checks, fold := auditLog(id, log, v, choose)
	rm := readModelCheck(rows.Summary, fold, checks[0])
	if rows.SummaryErr != nil {
		rm = failed(CheckReadModel, 0, "the stored read model cannot be read: "+rows.SummaryErr.Error())
	}
	all := append([]Check{chainCheck(chain)}, checks[0], rm)
	all = append(all, checks[1:]...)
	all = append(all, sideRowChecks(log.Events, rows)...)
	return newReport(chain, all)
}

// newReport sums checks up: OK when all hold, FirstBadSeq the earliest event any names.
func newReport(chain ChainReport, checks []Check) Report {
	r := Report{OK: true, Events: chain.Events, HeadHash: chain.HeadHash, Checks: checks}
	for _, c := range checks {
		r.OK = r.OK && c.OK
		if c.FirstBadSeq != nil && (r.FirstBadSeq == nil || *c.FirstBadSeq < *r.FirstBadSeq) {
			seq := *c.FirstBadSeq
			r.FirstBadSeq = &seq
		}
	}
	return r
}

func chainCheck(c ChainReport) Check {
	if c.OK {
		return passed(CheckHashChain, fmt.Sprintf("%d events, each linked by hash to the one before", c.Events))
	}
	return failed(CheckHashChain, c.FirstBadSeq, fmt.Sprintf("seq %d: %s", c.FirstBadSeq, c.Detail))
}

// readModelCheck compares the stored summary with the summary of the folded log. Every field
// of a summary is public, so the detail may name them all.
func readModelCheck(stored domain.Summary, fold *domain.Match, rules Check) Check {
	if fold == nil {
		where := "the log breaks the rules"
		if rules.FirstBadSeq != nil {
			where += fmt.Sprintf(" at seq %d", *rules.FirstBadSeq)
		}
		return failed(CheckReadModel, 0, "not checked: "+where+", so there is no state to compare the read model with")
	}
	want := fold.Summary()
	var diffs []string
	diff := func(field string, equal bool, got, want any) {
		if !equal {
			diffs = append(diffs, fmt.Sprintf("%s is %v, the log gives %v", field, got, want))
		}
	}
	diff("status", stored.Status == want.Status, stored.Status, want.Status)
	if stored.Version != want.Version {
		diffs = append(diffs, fmt.Sprintf("version is %d, the log gives %d (events after seq %d were removed, or the read model was changed)", stored.Version, want.Version, min(stored.Version, want.Version)))
	}
	diff("hands", stored.Hands == want.Hands, stored.Hands, want.Hands)
	diff("scores", slices.Equal(stored.Scores, want.Scores), stored.Scores, want.Scores)
	diff("winner_side", sameSide(stored.WinnerSide, want.WinnerSide), sideText(stored.WinnerSide), sideText(want.WinnerSide))
	diff("players", slices.Equal(stored.Players, want.Players), stored.Players, want.Players)
	diff("updated_at", stored.UpdatedAt.Equal(want.UpdatedAt), stored.UpdatedAt, want.UpdatedAt)
	diff("turn", sameSide(stored.Turn, want.Turn), sideText(stored.Turn), sideText(want.Turn))
	diff("turn_deadline", sameTime(stored.Deadline, want.Deadline), stored.Deadline, want.Deadline)
	diff("open_seats", slices.Equal(stored.OpenSeats, want.OpenSeats), stored.OpenSeats, want.OpenSeats)
	if len(diffs) > 0 {
		return failed(CheckReadModel, 0, "the stored read model disagrees with the log: "+strings.Join(diffs, "; "))
	}
	return passed(CheckReadModel, fmt.Sprintf("the stored read model agrees with the log (version %d, %d hands, scores %v)", want.Version, want.Hands, want.Scores))
}

func sameTime(a, b *time.Time) bool { return (a == nil) == (b == nil) && (a == nil || a.Equal(*b)) }

func sameSide(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sideText(s *int) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprint(*s)
}

func passed(name, detail string) Check { return Check{Name: name, OK: true, Detail: detail} }

// failed is a failing check; seq 0 means the fault lies in no single event.
func failed(name string, seq int, detail string) Check {
	c := Check{Name: name, Detail: detail}
	if seq > 0 {
		c.FirstBadSeq = &seq
	}
	return c
}
