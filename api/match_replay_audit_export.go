package api

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/domain/notation"
)

// The records of a match (docs/api-records.md, "Replay, audit and export"): replay to any step, audit, export. Each reads
// the match as the caller may see it, like GET /matches/{id}: a seat token shows that seat's
// tiles while the match is live, no token shows a spectator's view, and a finished match shows
// everything to everyone.

// ReplayResponse is the match as it was right after one event.
type ReplayResponse struct {
	// Step is the seq of the event replayed to.
	Step int `json:"step" minimum:"1"`
	// Event is event number step, as the caller may see it.
	Event Event `json:"event"`
	// Match is the match right after the event. Its version is step. In the replay of a
	// finished match, hand.hands and hand.boneyard_tiles show every seat's tiles and the
	// boneyard as they were.
	Match MatchView `json:"match"`
}

// ExportResponse is a match's whole record: the match as the caller may see it and every
// event up to its version, redacted as GET /events redacts them.
type ExportResponse struct {
	Match  MatchView     `json:"match"`
	Events []ExportEvent `json:"events"`
	// BranchOf, on a branch once it has ended (docs/review.md, "Play on"), is the log its own
	// repeats: its parent's events before step, each with its link, whose last hash is the
	// one match.created's branch_of names. allfives verify checks a branch from this one file.
	BranchOf *ExportBranch `json:"branch_of,omitempty"`
}

// ExportBranch is a branch's parent and step, and the parent's events before step.
type ExportBranch struct {
	Match  string        `json:"match" example:"0f3c9a1e5b7d4c2a8e6f1b3d5a7c9e0f"`
	Step   int           `json:"step" minimum:"2" example:"12"`
	Events []ExportEvent `json:"events"`
}

// ExportEvent is an event as GET /events shows it and, once the match has ended, its link of
// the hash chain (the examples are seq 2 of the worked example in docs/api.md) (docs/api-records.md, "Verifying an export"): hash = sha256(prev_hash || seq as 8
// bytes big-endian || type || raw_data), over the bytes the hex strings stand for. A live
// match's export has none of the three: raw payloads hold every hand, and a hash of a draw
// would give the tile away to anyone trying the 28 candidates.
type ExportEvent struct {
	Event
	// PrevHash is the hash of the event before (hex), "" for seq 1; only once the match ended.
	PrevHash *string `json:"prev_hash,omitempty" example:"1e697bb1d9a8db29386cee5d5dc66efe1730c529258a22685d7a880b0f130226"`
	// Hash is this event's hash (hex); only once the match ended.
	Hash *string `json:"hash,omitempty" example:"79176d86d8da3ef67cceda97d3248b57ec0d17a9b702032268c88ab1037e54d7"`
	// RawData is the event's payload exactly as it was hashed: its JSON text, byte for byte
	// (the keys in its own order, which data does not keep); only once the match ended.
	RawData *string `json:"raw_data,omitempty" example:"{\"hand\":1,\"leader\":0,\"lead\":\"highest_double\",\"redeals\":0,\"hands\":[[\"2-3\",\"4-4\",\"4-5\",\"2-4\",\"2-5\",\"0-0\",\"5-5\"],[\"1-2\",\"3-6\",\"1-5\",\"0-1\",\"5-6\",\"4-6\",\"3-3\"]],\"hand_sizes\":[7,7],\"boneyard\":[\"3-5\",\"0-3\",\"1-1\",\"0-4\",\"0-2\",\"1-3\",\"3-4\",\"2-6\",\"0-6\",\"1-6\",\"2-2\",\"6-6\",\"0-5\",\"1-4\"],\"boneyard_count\":14}"`
}

// toExportEvents is the wire form of an export's events, with each one's link when there is one.
func toExportEvents(events []domain.Event, chain []audit.ChainLink) []ExportEvent {
	wire := ToEvents(events)
	out := make([]ExportEvent, len(wire))
	for i, e := range wire {
		out[i].Event = e
		if i < len(chain) {
			prev, hash, raw := hex.EncodeToString(chain[i].PrevHash), hex.EncodeToString(chain[i].Hash), string(chain[i].Data)
			out[i].PrevHash, out[i].Hash, out[i].RawData = &prev, &hash, &raw
		}
	}
	return out
}

// AuditReport says, check by check, whether a match's stored record holds up. It is the
// answer even when a check fails: the audit ran, and ok says what it found.
type AuditReport struct {
	// OK is true when every check holds.
	OK bool `json:"ok"`
	// Events is the number of events stored.
	Events int `json:"events"`
	// HeadHash is the hash of the last event, which commits to the whole log (hex); null while
	// the match is live, when it would give a drawn tile away to anyone trying the 28 tiles.
	HeadHash *string `json:"head_hash" extensions:"x-nullable" example:"79176d86d8da3ef67cceda97d3248b57ec0d17a9b702032268c88ab1037e54d7"`
	// FirstBadSeq is the earliest event any check found at fault; null when no event is,
	// including when only the read model disagrees with the log.
	FirstBadSeq *int         `json:"first_bad_seq" extensions:"x-nullable"`
	Checks      []AuditCheck `json:"checks"`
}

// AuditCheck is one check of an audit. The names are stable: hash_chain (every event is
// linked by hash to the one before, with no gap), rules (every event follows from the ones
// before under the rules), read_model (the stored summary agrees with the log), and once
// match.ended has revealed the seed, seed (it matches the commitment) and deals (every deal
// re-derives from it); then the tables beside the log: seats (a row per player of
// match.created, every human seat with a token hash), idempotency (every record names a move
// of its seat within the log) and stored_seed (the stored secret seed hashes to the
// commitment; nothing else of it is said).
type AuditCheck struct {
	Name   string `json:"name" enums:"hash_chain,rules,read_model,seed,deals,seats,idempotency,stored_seed"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// FirstBadSeq names the first event the check found at fault, when the fault lies in one.
	FirstBadSeq *int `json:"first_bad_seq,omitempty"`
}

// replay answers the match as it was right after one event.
//
//	@Summary			Replay a match to a step
//	@ID					replayMatch
//	@Description		Event number step (its seq) and the match as it was right after it. A finished match shows everything at every step, every seat's tiles and the boneyard in draw order included (hand.hands, hand.boneyard_tiles); a live one shows only what the caller may see now: with a seat token, that seat's tiles. Steps run from 1 to the match's version; any other step is 400 INVALID_REQUEST.
//	@Tags				records
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id		path		string	true	"match id"
//	@Param				step	query		int		true	"the seq of the event to replay to"	minimum(1)
//	@Success			200		{object}	ReplayResponse
//	@Failure			400		{object}	Problem	"INVALID_REQUEST: step missing, not an integer, or not from 1 to the match's version"
//	@Failure			401		{object}	Problem	"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure			409		{object}	Problem	"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router				/api/v1/matches/{id}/replay [get]
func (s *server) replay(c echo.Context) error {
	q, err := query(c, "step")
	if err != nil {
		return err
	}
	if !q.Has("step") {
		return domain.Invalidf("step is required: the seq of the event to replay to, from 1 to the match's version")
	}
	step, err := strconv.Atoi(q.Get("step"))
	if err != nil {
		return domain.Invalidf("step must be an integer from 1 to the match's version, got %q", clip(q.Get("step")))
	}
	id := c.Param("id")
	v, err := s.viewer(c, id)
	if err != nil {
		return err
	}
	event, view, err := s.svc.Replay(c.Request().Context(), id, v, step)
	if err != nil {
		return err // a step out of range is domain.ErrInvalid: 400
	}
	recordHeaders(c)
	return c.JSON(http.StatusOK, ReplayResponse{Step: step, Event: ToEvents([]domain.Event{event})[0], Match: ToMatchView(view)})
}

// audit re-verifies a match's stored record.
//
//	@Summary			Audit a match
//	@ID					auditMatch
//	@Description		Re-verifies the stored record and says, check by check, what holds: the hash chain is intact (hash_chain); every event follows from the ones before under the rules, each recorded action re-run through the referee and its events compared with those stored, points and hand ends included (rules); the stored read model agrees with the log (read_model); and once match.ended has revealed the seed, the seed matches the commitment (seed) and every deal re-derives from it (deals); then the tables beside the log: one seat row per player, every human seat with a token hash (seats), every idempotency record naming a move of its seat within the log (idempotency), and the stored secret seed hashing to the commitment, for a live match too, without revealing anything of it (stored_seed). A record that cannot be read or folded, which every other endpoint answers with RECORD_CORRUPT, is audited all the same. A live match is audited as far as it is public: its deals are checked for consistency only, and a failure's detail never shows tiles the caller may not see. The answer is 200 whether or not the record holds up: ok says which, and first_bad_seq names the first event found at fault. head_hash, which commits to the whole log, is given once the match has ended (while it is live it would give drawn tiles away).
//	@Tags				records
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id	path		string		true	"match id"
//	@Success			200	{object}	AuditReport	"the audit ran; ok says whether the record holds up"
//	@Failure			400	{object}	Problem		"INVALID_REQUEST"
//	@Failure			401	{object}	Problem		"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404	{object}	Problem		"MATCH_NOT_FOUND"
//	@Failure			409	{object}	Problem		"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router				/api/v1/matches/{id}/audit [get]
func (s *server) audit(c echo.Context) error {
	id, v, err := s.matchCaller(c, s.viewer)
	if err != nil {
		return err
	}
	rep, err := s.svc.Audit(c.Request().Context(), id, v)
	if err != nil {
		return err
	}
	out := AuditReport{OK: rep.OK, Events: rep.Events, FirstBadSeq: rep.FirstBadSeq, Checks: make([]AuditCheck, len(rep.Checks))}
	if rep.HeadHash != "" {
		out.HeadHash = &rep.HeadHash
	}
	for i, ch := range rep.Checks {
		out.Checks[i] = AuditCheck{Name: ch.Name, OK: ch.OK, Detail: ch.Detail, FirstBadSeq: ch.FirstBadSeq}
	}
	recordHeaders(c)
	return c.JSON(http.StatusOK, out)
}

// export answers a match's whole record.
//
//	@Summary			Export a match
//	@ID					exportMatch
//	@Description		The whole record as the caller may see it: with format=json (the default) the match and every event, which re-fold to the same state; with format=text the readable notation of docs/notation.md, one line per event. While the match is live a seat token shows that seat's tiles and a spectator sees no hand; a finished match shows everything, the revealed seed included, and its match says where its review stands (review).
//	@Tags				records
//	@Produce			json
//	@Produce			plain
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id		path		string			true	"match id"
//	@Param				format	query		string			false	"json or text"	Enums(json, text)	default(json)
//	@Success			200		{object}	ExportResponse	"format=json: application/json; format=text: text/plain, the notation of docs/notation.md"
//	@Failure			400		{object}	Problem			"INVALID_REQUEST: a format other than json or text"
//	@Failure			401		{object}	Problem			"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404		{object}	Problem			"MATCH_NOT_FOUND"
//	@Failure			409		{object}	Problem			"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router				/api/v1/matches/{id}/export [get]
func (s *server) export(c echo.Context) error {
	q, err := query(c, "format")
	if err != nil {
		return err
	}
	format := "json"
	if q.Has("format") {
		format = q.Get("format")
	}
	if format != "json" && format != "text" {
		return domain.Invalidf("format must be json or text, got %q", clip(format))
	}
	id := c.Param("id")
	v, err := s.viewer(c, id)
	if err != nil {
		return err
	}
	rec, err := s.svc.Export(c.Request().Context(), id, v)
	if err != nil {
		return err
	}
	recordHeaders(c)
	if format == "text" {
		var buf bytes.Buffer
		if err := notation.Write(&buf, id, rec.Events); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", buf.Bytes())
	}
	out := ExportResponse{Match: ToMatchView(rec.Match), Events: toExportEvents(rec.Events, rec.Chain)}
	if b := rec.Match.BranchOf; b != nil && rec.PrefixChain != nil {
		out.BranchOf = &ExportBranch{Match: b.Match, Step: b.Step, Events: toExportEvents(rec.Prefix, rec.PrefixChain)}
	}
	// The replay viewer reads the export: its match says whether to show a review.
	if out.Match.Review, err = s.reviewState(c, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// recordHeaders marks an answer that depends on the caller's token and changes with the match.
func recordHeaders(c echo.Context) {
	h := c.Response().Header()
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Vary", "Authorization")
}
