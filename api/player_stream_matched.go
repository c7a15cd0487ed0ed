package api

import "context"

// matched is the matched event of a match new to the player's stream that was made from one
// of the player's seeks (docs/matchmaking.md); none for any other match. The seek names its
// match before the match exists (it is claimed first), so the stream, which hears of the
// match only once it is stored, always finds it.
func (pf *playerFeed) matched(ctx context.Context, match string, seat int) []namedEvent {
	if pf.s.seeks == nil {
		return nil
	}
	seek, err := pf.s.seeks.SeekOfMatch(ctx, pf.player, match)
	if err != nil || seek == "" {
		return nil // not a seek's match, or not readable now: its other events still go
	}
	return []namedEvent{{playerEventMatched, PlayerEvent{Match: match, Seat: seat, Seek: seek}}}
}
