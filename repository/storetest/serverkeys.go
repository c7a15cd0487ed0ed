package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
)

// RunServerKeys checks the ratings.KeyStore contract: the first key stored under a name is
// the one every later call gets, whatever it offers, and of calls racing on two handles of one
// database (two instances; the one store twice for a database one process owns) every one
// gets the same key. open returns two handles of a new, empty database.
func RunServerKeys(t *testing.T, open func(t *testing.T) (a, b ratings.KeyStore)) {
	t.Run("FirstWins", func(t *testing.T) {
		a, b := open(t)
		first, second := freshKey(), freshKey()
		got, err := a.ServerKey(context.Background(), "cursor", first)
		if err != nil || !bytes.Equal(got, first) {
			t.Fatalf("the first key: %x, %v; want %x", got, err, first)
		}
		for _, s := range []ratings.KeyStore{a, b} {
			if got, err := s.ServerKey(context.Background(), "cursor", second); err != nil || !bytes.Equal(got, first) {
				t.Fatalf("a later call: %x, %v; want the first key %x", got, err, first)
			}
		}
		if got, err := b.ServerKey(context.Background(), "other", second); err != nil || !bytes.Equal(got, second) {
			t.Fatalf("another name: %x, %v; want %x", got, err, second)
		}
	})
	t.Run("Race", func(t *testing.T) {
		a, b := open(t)
		keys := make([][]byte, 8)
		errs := make([]error, len(keys))
		var wg sync.WaitGroup
		for i := range keys {
			s := []ratings.KeyStore{a, b}[i%2]
			wg.Go(func() { keys[i], errs[i] = s.ServerKey(context.Background(), "cursor", freshKey()) })
		}
		wg.Wait()
		for i := range keys {
			if errs[i] != nil || !bytes.Equal(keys[i], keys[0]) {
				t.Fatalf("call %d: %x, %v; call 0 got %x", i, keys[i], errs[i], keys[0])
			}
		}
	})
}

func freshKey() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}
