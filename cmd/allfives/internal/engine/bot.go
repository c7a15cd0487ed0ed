package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
)

// maxLine bounds one line: an `end` line's final view is the longest a connector sends.
const maxLine = 4 << 20

// Bot is the reference engine: a strategy behind the protocol, reading the connector's lines
// from in and answering on out.
type Bot struct {
	Name     string
	Strategy domain.Strategy
	seat     *Seat
	broken   error
	w        *bufio.Writer
}

// Run speaks the protocol until `quit` or the end of in. A first line other than the
// greeting is answered `unsupported`, and Run returns an error.
func (b *Bot) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	b.w = bufio.NewWriter(out)
	if !sc.Scan() {
		return fmt.Errorf("no greeting: %w", sc.Err())
	}
	if strings.TrimRight(sc.Text(), "\r") != Greeting {
		b.say(WordUnsupported)
		return fmt.Errorf("unsupported greeting %q (want %q)", sc.Text(), Greeting)
	}
	b.say(WordID + " name " + b.Name)
	b.say(WordID + " author allfives")
	if err := b.say(WordReady); err != nil {
		return err
	}
	for sc.Scan() {
		word, rest := Split(sc.Text())
		var err error
		switch word {
		case WordMatch:
			err = b.match(rest)
		case WordEvent:
			b.event(rest)
		case WordGo:
			err = b.move(ctx, rest)
		case WordQuit:
			return nil
		}
		if err != nil {
			return err
		}
	}
	return sc.Err()
}

// say writes one line and flushes it: the connector waits on every answer.
func (b *Bot) say(line string) error {
	b.w.WriteString(line)
	b.w.WriteByte('\n')
	return b.w.Flush()
}

func (b *Bot) match(rest string) error {
	f := strings.Fields(rest)
	if len(f) != 3 || f[1] != "seat" {
		return fmt.Errorf("match: want <id> seat <n>, got %q", rest)
	}
	seat, err := strconv.Atoi(f[2])
	if err != nil || seat < 0 {
		return fmt.Errorf("match: seat %q is not a seat number", f[2])
	}
	b.seat, b.broken = NewSeat(seat), nil
	return nil
}

// event folds one event. A fold that fails leaves the engine unable to build a true view: it
// says so, and answers each `go` with the first legal move rather than decide from a wrong one.
func (b *Bot) event(rest string) {
	if b.seat == nil || b.broken != nil {
		return
	}
	var e domain.Event
	err := json.Unmarshal([]byte(rest), &e)
	if err == nil {
		err = b.seat.Apply(e)
	}
	if err != nil {
		b.broken = err
		b.say(WordInfo + " cannot follow the match: " + err.Error())
	}
}

func (b *Bot) move(ctx context.Context, rest string) error {
	ms, wire, err := ParseGo(rest)
	if err != nil {
		return err
	}
	if len(wire) == 0 {
		return fmt.Errorf("go with no legal moves")
	}
	pick := b.choose(ctx, ms, wire)
	line, err := json.Marshal(pick)
	if err != nil {
		return err
	}
	return b.say(WordMove + " " + string(line))
}

// choose asks the strategy, within three quarters of the time left on the clock. Whatever
// goes wrong, the answer is still a legal move: the first.
func (b *Bot) choose(ctx context.Context, ms int64, wire []LegalMove) LegalMove {
	if b.seat == nil || b.broken != nil {
		return wire[0]
	}
	legal := make([]domain.LegalMove, len(wire))
	for i, l := range wire {
		d, err := l.Domain()
		if err != nil {
			b.say(WordInfo + " unreadable legal move: " + err.Error())
			return wire[0]
		}
		legal[i] = d
	}
	v, err := b.seat.View(legal)
	if err != nil {
		b.say(WordInfo + " " + err.Error())
		return wire[0]
	}
	if ms >= 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond*3/4)
		defer cancel()
	}
	mv, err := b.Strategy.Choose(ctx, v)
	if err != nil {
		b.say(WordInfo + " the strategy failed: " + err.Error())
		return wire[0]
	}
	for i, l := range legal {
		if l.Move().Action == mv.Action && (mv.Action != domain.ActionPlay || l.Tile == mv.Tile && (l.End == mv.End || !mv.EndGiven)) {
			return wire[i]
		}
	}
	b.say(WordInfo + " the strategy chose a move not in the list")
	return wire[0]
}
