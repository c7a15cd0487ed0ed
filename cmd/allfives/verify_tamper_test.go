package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestVerifyTampered: every kind of damage to a finished match's export makes verify exit
// non-zero and name the first bad seq: a byte of a payload, an event removed, two swapped, a
// hash replaced, the seed replaced and a deal edited (the last two also with every hash
// recomputed, as a forger would, so that the seed and deals checks are what catch them).
func TestVerifyTampered(t *testing.T) {
	f := newReplayFixture(t)
	body := exportOf(t, f, f.done)
	base := parseExport(t, body)
	played := base.indexOf(t, domain.TypeTilePlayed)
	ended := len(base.Events) - 1
	deal := base.indexOf(t, domain.TypeHandStarted)
	otherSeed := strings.Repeat("ab", 32)

	cases := []struct {
		name  string
		edit  func(e editable)
		first int // the seq verify must name
		check string
	}{
		{"a byte of raw_data", func(e editable) {
			raw := e.Events[played]["raw_data"].(string)
			i := strings.Index(raw, `"seat":`) + len(`"seat":`)
			e.Events[played]["raw_data"] = raw[:i] + string(raw[i]^1) + raw[i+1:]
		}, played + 1, "hash_chain"},
		{"a byte of data", func(e editable) {
			e.Events[played]["data"].(map[string]any)["total"] = e.Events[played]["data"].(map[string]any)["total"].(float64) + 1
		}, played + 1, "payloads"},
		{"an event removed", func(e editable) {
			e.Events = append(e.Events[:played], e.Events[played+1:]...)
		}, played + 1, "hash_chain"},
		{"two events swapped", func(e editable) {
			e.Events[played], e.Events[played+1] = e.Events[played+1], e.Events[played]
		}, played + 1, "hash_chain"},
		{"a hash replaced", func(e editable) {
			e.Events[played]["hash"] = strings.Repeat("0", 64)
		}, played + 1, "hash_chain"},
		{"the seed replaced", func(e editable) {
			replaceSeed(t, e.Events[ended], otherSeed)
		}, ended + 1, "hash_chain"},
		{"the seed replaced, hashes recomputed", func(e editable) {
			replaceSeed(t, e.Events[ended], otherSeed)
			e.rehash(t, ended)
		}, ended + 1, "seed"},
		{"a deal edited", func(e editable) {
			editDeal(t, e.Events[deal])
		}, deal + 1, "hash_chain"},
		{"a deal edited, hashes recomputed", func(e editable) {
			editDeal(t, e.Events[deal])
			e.rehash(t, deal)
		}, deal + 1, "deals"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := parseExport(t, body) // a fresh copy each time
			tc.edit(e)
			out, err := verifyFile(t, e.bytes(t))
			if err == nil {
				t.Fatalf("verify passed a tampered export:\n%s", out)
			}
			if want := fmt.Sprintf("first bad seq: %d\n", tc.first); !strings.Contains(out, want) {
				t.Fatalf("verify does not say %q:\n%s", want, out)
			}
			if !strings.Contains(out, "FAIL "+tc.check) {
				t.Fatalf("the %s check does not fail:\n%s", tc.check, out)
			}
		})
	}
}

// replaceSeed puts seed in a match.ended event's raw_data and data.
func replaceSeed(t *testing.T, ev map[string]any, seed string) {
	t.Helper()
	raw := ev["raw_data"].(string)
	old := ev["data"].(map[string]any)["seed"].(string)
	if !strings.Contains(raw, strconv.Quote(old)) {
		t.Fatalf("raw_data %s does not hold the seed", raw)
	}
	ev["raw_data"] = strings.Replace(raw, strconv.Quote(old), strconv.Quote(seed), 1)
	ev["data"].(map[string]any)["seed"] = seed
}

// editDeal swaps the first tiles of seats 0 and 1 in a hand.started event, in raw_data (the
// durable encoding) and data alike: the deal stays a consistent shuffle, but not the seed's.
func editDeal(t *testing.T, ev map[string]any) {
	t.Helper()
	d, err := domain.DecodeEventData(domain.TypeHandStarted, []byte(ev["raw_data"].(string)))
	if err != nil {
		t.Fatal(err)
	}
	hs := d.(domain.HandStarted)
	hs.Hands[0][0], hs.Hands[1][0] = hs.Hands[1][0], hs.Hands[0][0]
	raw, err := domain.EncodeData(hs)
	if err != nil {
		t.Fatal(err)
	}
	ev["raw_data"] = string(raw)
	hands := ev["data"].(map[string]any)["hands"].([]any)
	h0, h1 := hands[0].([]any), hands[1].([]any)
	h0[0], h1[0] = h1[0], h0[0]
}
