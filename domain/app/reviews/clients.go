package reviews

import (
	"errors"
	"slices"
)

// ErrTooManyRunning: the asker has as many reviews queued or being computed as
// Config.PerClient allows, so that one client cannot fill the queue for everyone.
var ErrTooManyRunning = errors.New("this client has as many reviews queued or being computed as it may; ask again once one is done")

// Asker is who asks for a review, for the limits of one client (docs/operations.md, "Limits").
// Keys name it (its address, its player): each key may have Config.PerClient reviews queued
// or being computed at once. Admit, when not nil, is asked just before a review is queued
// (never for one done already or in flight), and its error refuses it: a rate per hour.
type Asker struct {
	Keys  []string
	Admit func() error
}

// admit is nil when who may queue one more review, else why not; the caller holds mu, so that
// the rate's count and the place in the queue go together.
func (s *Service) admit(who Asker) error {
	if s.perClient > 0 && slices.ContainsFunc(who.Keys, func(k string) bool { return s.running[k] >= s.perClient }) {
		return ErrTooManyRunning
	}
	if who.Admit != nil {
		return who.Admit()
	}
	return nil
}

// count counts review id against who's keys until it is done; the caller holds mu.
func (s *Service) count(id string, who Asker) {
	if s.perClient == 0 || len(who.Keys) == 0 {
		return
	}
	s.owners[id] = slices.Clone(who.Keys)
	for _, k := range who.Keys {
		s.running[k]++
	}
}

// uncount forgets review id's count against its asker's keys; the caller holds mu.
func (s *Service) uncount(id string) {
	for _, k := range s.owners[id] {
		if s.running[k]--; s.running[k] <= 0 {
			delete(s.running, k)
		}
	}
	delete(s.owners, id)
}
