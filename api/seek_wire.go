package api

import (
	"time"

	"github.com/allfives/allfives/domain/app/seeks"
)

// CreateSeekRequest asks to be paired into a match (docs/matchmaking.md).
type CreateSeekRequest struct {
	// Format is the table: 2p, 3p, 4p, or 2v2 (two sides of two partners).
	Format string `json:"format" enums:"2p,3p,4p,2v2" example:"2p"`
	// Rated makes the match move its players' ratings; only rated seeks meet rated seeks.
	Rated bool `json:"rated" example:"true"`
	// TurnSeconds is the clock of the match, 10 to 604800; left out, the server's default
	// (--seek-turn-seconds). Only seeks of one clock meet.
	TurnSeconds int `json:"turn_seconds,omitempty" minimum:"10" maximum:"604800" example:"60"`
	// Target is the score that wins, a multiple of 5 from 5 to 1000; left out, the format's
	// default (250 with two sides, else 200). Only seeks of one target meet.
	Target int `json:"target,omitempty" minimum:"5" maximum:"1000" multipleOf:"5" example:"250"`
}

// SeekView is a seek as its player reads it.
type SeekView struct {
	ID          string `json:"id" example:"5b1f0c2ad4e6f7a8b9c0d1e2f3a4b5c6"`
	Format      string `json:"format" enums:"2p,3p,4p,2v2"`
	Rated       bool   `json:"rated"`
	TurnSeconds int    `json:"turn_seconds"`
	// Target is the score its match is played to: the one asked for, else the format's default.
	Target int `json:"target" example:"250"`
	// Status is searching, pairing (a match is being made for it, for a moment), matched,
	// cancelled (by its player, or by a rotation of its key) or expired.
	Status    string    `json:"status" enums:"searching,pairing,matched,cancelled,expired"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	// ExpiresAt is when a seek still searching expires (--seek-ttl).
	ExpiresAt time.Time `json:"expires_at" format:"date-time"`
	// Match and Seat are the match it was paired into and the player's seat there (matched).
	Match *string `json:"match,omitempty" example:"9f90f450a2df8e5610da7196339fb2c8"`
	Seat  *int    `json:"seat,omitempty"`
	// Reason is why it was cancelled: cancelled (its player) or key_rotated.
	Reason string `json:"reason,omitempty" enums:"cancelled,key_rotated"`
}

// SeekResponse is the answer of every seek route.
type SeekResponse struct {
	Seek SeekView `json:"seek"`
}

func toSeekView(r seeks.Record) SeekView {
	v := SeekView{
		ID: r.ID, Format: string(r.Format), Rated: r.Rated, TurnSeconds: r.TurnSeconds, Target: r.EffectiveTarget(),
		Status: string(r.Status), CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, Reason: r.Reason,
	}
	if r.Status == seeks.StatusMatched {
		match, seat := r.Match, r.Seat
		v.Match, v.Seat = &match, &seat
	}
	return v
}

func seekRequest(b CreateSeekRequest) seeks.Request {
	return seeks.Request{Format: b.Format, Rated: b.Rated, TurnSeconds: b.TurnSeconds, Target: b.Target}
}
