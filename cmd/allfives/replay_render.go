package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// renderStep writes the table as it was right after event step: the event, the scores, and
// while a hand is on, the line, its ends and count, whose turn it is, each seat's tiles (the
// tiles themselves when the view shows them) and the boneyard.
func renderStep(step int, e api.Event, v api.MatchView) string {
	var b sheet
	fmt.Fprintf(&b, "All Fives match %s at step %d\n", v.ID, step)
	lead := v.Hand != nil && len(v.Hand.Line) == 1
	b.field("event", "%d. %s", e.Seq, describe(e, lead))
	sides := make([]string, len(v.Scores))
	for i, s := range v.Scores {
		sides[i] = fmt.Sprintf("side %d %d", i, s)
	}
	b.field("scores", "%s (target %d)", strings.Join(sides, ", "), v.Target)
	if v.Hand != nil {
		b.hand(v.Hand, v.Turn)
	}
	switch {
	case v.WinnerSide != nil:
		b.field("result", "side %d wins", *v.WinnerSide)
	case v.Status == string(domain.StatusWaiting) || v.Status == string(domain.StatusExpired) || v.Status == string(domain.StatusCancelled):
		open := make([]string, len(v.OpenSeats))
		for i, s := range v.OpenSeats {
			open[i] = "S" + strconv.Itoa(s)
		}
		b.field("status", "%s: open seats %s", v.Status, strings.Join(open, ", "))
	}
	b.seats(v)
	if v.You != nil {
		b.field("you", "S%d", v.You.Seat)
	}
	return b.String()
}

// sheet is the text of one step: lines of a label, padded to a column, and a value.
type sheet struct{ strings.Builder }

func (b *sheet) field(label, format string, args ...any) {
	fmt.Fprintf(b, "%-10s %s\n", label, fmt.Sprintf(format, args...))
}

// hand writes the hand in play (or the last one, once the match is over): its number and turn,
// the line and its count, the boneyard.
func (b *sheet) hand(h *api.Hand, turn *int) {
	if turn == nil {
		b.field("hand", "%d, the last", h.Number)
	} else {
		b.field("hand", "%d, S%d to move", h.Number, *turn)
	}
	if len(h.Line) == 0 {
		b.field("line", "(empty)")
	} else {
		b.field("line", "%s", strings.Join(h.Line, " "))
		if h.Left == nil || h.Right == nil {
			b.field("ends", "none yet: the lead is to come")
		} else {
			b.field("ends", "%s = %d", endsText(h), h.Total)
		}
	}
	if h.BoneyardTiles != nil {
		b.field("boneyard", "%s: %s", tiles(h.Boneyard), strings.Join(h.BoneyardTiles, " "))
	} else {
		b.field("boneyard", "%s", tiles(h.Boneyard))
	}
}

// seats writes a line per seat, with its tiles where the view shows them: the hands the view
// reveals (all of them once the match is over), else the viewer's own.
func (b *sheet) seats(v api.MatchView) {
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
		b.field(label, "S%d %s, %s, side %d, %s", s.Seat, s.Name, kind, s.Side, held)
	}
}

// endsText writes the ends as left|right, an end whose outermost tile is a double as that
// double (it counts twice); a lone double is written once, as the count takes it once.
func endsText(h *api.Hand) string {
	if len(h.Line) == 1 && h.Left.Double {
		return h.Line[0]
	}
	end := func(e *api.OpenEnd) string {
		if e.Double {
			return fmt.Sprintf("%d-%d", e.Pip, e.Pip)
		}
		return strconv.Itoa(e.Pip)
	}
	return end(h.Left) + "|" + end(h.Right)
}

// tiles counts tiles in words: "1 tile", "5 tiles".
func tiles(n int) string {
	if n == 1 {
		return "1 tile"
	}
	return fmt.Sprintf("%d tiles", n)
}

// describe says in a few words what an event did; lead says whether a play was the hand's
// first, which reads "leads" rather than "plays". It words every type in domain.EventTypes
// (TestDescribeCoversEveryEventType); only a type newer than this binary falls back to its name.
func describe(e api.Event, lead bool) string {
	d := e.Data
	switch domain.EventType(e.Type) {
	case domain.TypeMatchCreated:
		return fmt.Sprintf("match created: %d players, target %d", len(d.Players), deref(d.Target))
	case domain.TypeHandStarted:
		why := "won the last hand"
		if d.Lead == string(domain.LeadHighestDouble) {
			why = "highest double"
		}
		return fmt.Sprintf("hand %d dealt: S%d leads (%s)", deref(d.Hand), deref(d.Leader), why)
	case domain.TypeTilePlayed:
		text := fmt.Sprintf("S%d plays %s %s: the ends count %d", deref(d.Seat), d.Tile, d.End, deref(d.Total))
		if lead {
			text = fmt.Sprintf("S%d leads %s: the ends count %d", deref(d.Seat), d.Tile, deref(d.Total))
		}
		if p := deref(d.Points); p > 0 {
			text += fmt.Sprintf(", +%d", p)
		}
		return text
	case domain.TypeTileDrawn:
		if d.Tile == "" {
			return fmt.Sprintf("S%d draws (hidden)", deref(d.Seat))
		}
		return fmt.Sprintf("S%d draws %s", deref(d.Seat), d.Tile)
	case domain.TypeTurnPassed:
		return fmt.Sprintf("S%d passes", deref(d.Seat))
	case domain.TypeHandEnded:
		how := "blocked"
		if d.Outcome == string(domain.OutcomeDomino) && d.Seat != nil {
			how = fmt.Sprintf("domino by S%d", *d.Seat)
		}
		who := "a tie: nobody scores"
		if w := d.WinnerSide.Side(); w != nil {
			who = fmt.Sprintf("side %d scores %d", *w, deref(d.Points))
		}
		return fmt.Sprintf("hand %d ends, %s; %s", deref(d.Hand), how, who)
	case domain.TypeMatchEnded:
		return fmt.Sprintf("match over: side %d wins", deref(d.WinnerSide.Side()))
	case domain.TypeSeatJoined:
		return fmt.Sprintf("S%d joined: %s", deref(d.Seat), d.Name)
	case domain.TypeSeatLeft:
		return fmt.Sprintf("S%d left: the seat is open again", deref(d.Seat))
	case domain.TypeTurnTimedOut:
		return fmt.Sprintf("S%d timed out: %s plays its turn", deref(d.Seat), domain.AutoplayBot)
	case domain.TypeSeatAutoplay:
		return fmt.Sprintf("S%d handed to %s until its player resumes", deref(d.Seat), d.Bot)
	case domain.TypeSeatResumed:
		return fmt.Sprintf("S%d resumed by its player", deref(d.Seat))
	case domain.TypeMatchExpired:
		return "match expired: its open seats stayed empty"
	case domain.TypeMatchCancelled:
		if d.Seat == nil {
			return "match cancelled: the offer was not accepted in time"
		}
		return fmt.Sprintf("match cancelled: S%d %s", *d.Seat, d.Reason)
	case domain.TypeSeatResigned:
		return fmt.Sprintf("S%d resigns", deref(d.Seat))
	}
	return e.Type
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
