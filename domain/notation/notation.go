package notation

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
)

// Write writes a match's record in the text notation documented in docs/notation.md: a
// header with the players, target and result, then a block per hand with its deal, one line
// per event with the ends and points, and the hand's result. events are the log from seq 1 as
// the reader may see them (redact them first): a hidden hand or draw is written as hidden. The
// output depends only on id and events, so the same record always reads the same.
func Write(w io.Writer, id string, events []domain.Event) error {
	if len(events) == 0 {
		return domain.Invalidf("a match's record starts with match.created; there are no events")
	}
	created, ok := events[0].Data.(domain.MatchCreated)
	if !ok {
		return domain.Invalidf("a match's record starts with match.created, not %s", events[0].Type)
	}
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		return err
	}
	n := &notation{info: created, table: table, scores: make([]int, table.Sides())}
	n.seqWidth = len(strconv.Itoa(events[len(events)-1].Seq))
	n.header(id, events)
	for _, e := range events[1:] {
		n.event(e)
	}
	_, err = w.Write(n.buf.Bytes())
	return err
}

// notation writes one record; it follows the line and the scores as the events go by, since
// a redacted log cannot be folded into a Match.
type notation struct {
	buf      bytes.Buffer
	info     domain.MatchCreated
	table    domain.Table
	seqWidth int
	scores   []int
	line     domain.Line
}

func (n *notation) printf(format string, args ...any) { fmt.Fprintf(&n.buf, format, args...) }

func (n *notation) header(id string, events []domain.Event) {
	info := n.info
	n.printf("All Fives match %s\n", id)
	n.field("rules", info.Rules)
	n.field("created", events[0].At.UTC().Format(time.RFC3339))
	n.field("target", strconv.Itoa(info.Target))
	n.field("partnerships", yesNo(info.Partnerships, "yes: S0+S2 are side 0, S1+S3 are side 1"))
	n.field("seeded", yesNo(info.Seeded, "yes"))
	n.field("commitment", info.Commitment)
	if info.Listed {
		n.field("listed", "yes: open seats are in the lobby")
	}
	if info.TurnSeconds > 0 {
		n.field("clock", fmt.Sprintf("%d s a turn; a seat is handed to %s after %s in a row", info.TurnSeconds, domain.AutoplayBot, plural(info.AutoplayAfter, "timeout")))
	}
	for i, p := range info.Players {
		label := ""
		if i == 0 {
			label = "players"
		}
		kind := string(p.Kind)
		if p.Bot != "" {
			kind += " (" + p.Bot + ")"
		}
		if p.Kind == domain.Open {
			n.field(label, fmt.Sprintf("S%d open seat, side %d", i, n.table.SideOf(i)))
			continue
		}
		n.field(label, fmt.Sprintf("S%d %s, %s, side %d", i, p.Name, kind, n.table.SideOf(i)))
	}
	result, seed := n.outcome(events)
	n.field("result", result)
	n.field("seed", seed)
}

// outcome is the header's result and seed lines, read ahead from the log.
func (n *notation) outcome(events []domain.Event) (result, seed string) {
	hands, scores := 0, make([]int, n.table.Sides())
	for _, e := range events {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			hands = d.Hand
		case domain.TilePlayed:
			if side := n.table.SideOf(d.Seat); side >= 0 && side < len(scores) {
				scores[side] += d.Points
			}
		case domain.HandEnded:
			scores = slices.Clone(d.Scores) // a copy: the plays that follow add to it
		case domain.MatchEnded:
			return fmt.Sprintf("side %d wins %s after %s", d.WinnerSide, scoreText(d.Scores), plural(hands, "hand")), d.Seed
		case domain.MatchExpired:
			return fmt.Sprintf("expired at seq %d with open seats, unplayed", e.Seq), "secret: the match expired before any deal"
		case domain.MatchCancelled:
			return fmt.Sprintf("cancelled at seq %d (%s), unplayed", e.Seq, d.Reason), "secret: the match was cancelled before any deal"
		}
	}
	last := events[len(events)-1].Seq
	return fmt.Sprintf("in progress at seq %d: hand %d, score %s", last, hands, scoreText(scores)), "secret until the match ends"
}

func (n *notation) field(label, value string) { n.printf("%-13s %s\n", label, value) }

func (n *notation) event(e domain.Event) {
	switch d := e.Data.(type) {
	case domain.HandStarted:
		n.deal(d)
	case domain.TilePlayed:
		n.play(e.Seq, d)
	case domain.TileDrawn:
		tile := "(hidden)"
		if d.Tile != nil {
			tile = d.Tile.String()
		}
		n.move(e.Seq, fmt.Sprintf("S%d draws %s", d.Seat, tile), "")
	case domain.TurnPassed:
		n.move(e.Seq, fmt.Sprintf("S%d passes", d.Seat), "")
	case domain.HandEnded:
		n.handEnded(d)
	case domain.MatchEnded:
		n.printf("\nMatch over at seq %d: side %d wins %s\n", e.Seq, d.WinnerSide, scoreText(d.Scores))
	default:
		n.seatEvent(e)
	}
}

// seatEvent writes the events of seats and the clock, each a numbered line like a move.
func (n *notation) seatEvent(e domain.Event) {
	switch d := e.Data.(type) {
	case domain.SeatJoined:
		n.move(e.Seq, fmt.Sprintf("S%d joins: %s", d.Seat, d.Name), "")
	case domain.SeatLeft:
		n.move(e.Seq, fmt.Sprintf("S%d leaves", d.Seat), "")
	case domain.TurnTimedOut:
		n.move(e.Seq, fmt.Sprintf("S%d times out", d.Seat), "its turn is played by "+domain.AutoplayBot)
	case domain.SeatAutoplay:
		n.move(e.Seq, fmt.Sprintf("S%d goes to %s", d.Seat, d.Bot), "until its player resumes")
	case domain.SeatResumed:
		n.move(e.Seq, fmt.Sprintf("S%d resumes", d.Seat), "")
	case domain.MatchExpired:
		n.printf("\nMatch expired at seq %d: its open seats stayed empty\n", e.Seq)
	case domain.MatchCancelled:
		by := "the offer was not accepted in time"
		if d.Seat != nil {
			by = fmt.Sprintf("S%d %s", *d.Seat, d.Reason)
		}
		n.printf("\nMatch cancelled at seq %d: %s\n", e.Seq, by)
	case domain.SeatResigned:
		n.move(e.Seq, fmt.Sprintf("S%d resigns", d.Seat), "its side ranks last; "+domain.AutoplayBot+" plays the seat if the match goes on")
	}
}

// deal opens a hand's block: who leads and why, each seat's tiles and the boneyard.
func (n *notation) deal(d domain.HandStarted) {
	n.line = domain.Line{}
	why := "won the last hand"
	if d.Lead == domain.LeadHighestDouble {
		why = "highest double"
		if d.Redeals > 0 {
			why += ", after " + plural(d.Redeals, "redeal")
		}
	}
	n.printf("\nHand %d: S%d leads (%s)\n", d.Hand, d.Leader, why)
	for s, h := range d.Hands {
		if h == nil {
			size := 0
			if s < len(d.HandSizes) {
				size = d.HandSizes[s]
			}
			n.printf("  S%-9d (%s)\n", s, plural(size, "tile"))
			continue
		}
		n.printf("  S%-9d %s\n", s, strings.Join(domain.TileNames(h), " "))
	}
	if d.Boneyard == nil {
		n.printf("  boneyard   (%s)\n", plural(d.BoneyardCount, "tile"))
		return
	}
	n.printf("  boneyard   %s\n", strings.Join(domain.TileNames(d.Boneyard), " "))
}

func (n *notation) play(seq int, d domain.TilePlayed) {
	verb := fmt.Sprintf("S%d plays %s %s", d.Seat, d.Tile, d.End)
	if n.line.Len() == 0 {
		verb = fmt.Sprintf("S%d leads %s", d.Seat, d.Tile)
	}
	n.line = n.line.With(d.Tile, d.End)
	tail := fmt.Sprintf("ends %s = %d", endsText(n.line), d.Total)
	if side := n.table.SideOf(d.Seat); d.Points != 0 && side >= 0 && side < len(n.scores) {
		n.scores[side] += d.Points
		tail = fmt.Sprintf("%-18s +%d  score %s", tail, d.Points, scoreText(n.scores))
	}
	n.move(seq, verb, tail)
}

// move writes one numbered line; the number is the event's seq, the step a replay names.
func (n *notation) move(seq int, action, tail string) {
	n.printf("%s\n", strings.TrimRight(fmt.Sprintf("  %*d. %-20s %s", n.seqWidth, seq, action, tail), " "))
}

func (n *notation) handEnded(d domain.HandEnded) {
	pips := make([]string, len(d.Pips))
	for s, p := range d.Pips {
		pips[s] = fmt.Sprintf("S%d %d", s, p)
	}
	text := "pips " + strings.Join(pips, ", ")
	if n.table.Partnerships() && len(d.Pips) == 4 {
		text += fmt.Sprintf(" (side 0 %d, side 1 %d)", d.Pips[0]+d.Pips[2], d.Pips[1]+d.Pips[3])
	}
	opening := "Blocked"
	if d.Outcome == domain.OutcomeDomino && d.Seat != nil {
		opening = fmt.Sprintf("Domino by S%d", *d.Seat)
	}
	points := "a tie for fewest pips: nobody scores"
	if d.WinnerSide != nil {
		points = fmt.Sprintf("side %d scores %d", *d.WinnerSide, d.Points)
	}
	n.scores = append(n.scores[:0], d.Scores...)
	n.printf("  %s: %s; %s; score %s\n", opening, text, points, scoreText(d.Scores))
}

// endsText writes the line's ends left|right, a double end as the double itself since it
// counts twice; a lone double is one tile at both ends and counts once.
func endsText(l domain.Line) string {
	if l.Len() == 1 && l.Tiles()[0].IsDouble() {
		return l.Tiles()[0].String()
	}
	end := func(e domain.OpenEnd) string {
		if e.Double {
			return fmt.Sprintf("%d-%d", e.Pip, e.Pip)
		}
		return strconv.Itoa(e.Pip)
	}
	return end(l.End(domain.Left)) + "|" + end(l.End(domain.Right))
}

func scoreText(scores []int) string {
	parts := make([]string, len(scores))
	for i, s := range scores {
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, "-")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func yesNo(b bool, yes string) string {
	if b {
		return yes
	}
	return "no"
}
