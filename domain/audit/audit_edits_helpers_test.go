package audit_test

import (
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

// The edits below tamper with a stored match as tamperCase.edit does: each returns the rows
// and the seq the audit must name (0 when no event is at fault).

func changePoints(rehashed bool) func(*testing.T, []tamperRow, *domain.Summary) ([]tamperRow, int) {
	return func(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
		k := findRow(t, rows, 0, func(d domain.EventData) bool { p, ok := d.(domain.TilePlayed); return ok && p.Points > 0 })
		rewrite(t, &rows[k], func(d domain.EventData) domain.EventData {
			p := d.(domain.TilePlayed)
			p.Points += 5
			return p
		})
		if rehashed {
			rehash(rows)
		}
		return rows, rows[k].seq
	}
}

func changeDraw(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	k := findRow(t, rows, 0, func(d domain.EventData) bool { _, ok := d.(domain.TileDrawn); return ok })
	rewrite(t, &rows[k], func(d domain.EventData) domain.EventData {
		td := d.(domain.TileDrawn)
		other := otherTile(*td.Tile)
		td.Tile = &other
		return td
	})
	rehash(rows)
	return rows, rows[k].seq
}

func garble(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	k := findRow(t, rows, 5, isPlay)
	rows[k].data = []byte(`{"seat":"x"}`)
	return rows, rows[k].seq
}

func deleteEvent(renumbered bool) func(*testing.T, []tamperRow, *domain.Summary) ([]tamperRow, int) {
	return func(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
		k := findRow(t, rows, 5, isPlay)
		seq := rows[k].seq
		rows = slices.Delete(rows, k, k+1)
		if renumbered {
			for i := k; i < len(rows); i++ {
				rows[i].seq--
			}
			rehash(rows)
		}
		return rows, seq
	}
}

func deleteLast(_ *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	return rows[:len(rows)-1], rows[len(rows)-1].seq
}

func swapPlays(rehashed bool) func(*testing.T, []tamperRow, *domain.Summary) ([]tamperRow, int) {
	return func(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
		k := 2
		for ; k+1 < len(rows); k++ {
			if rows[k].typ == domain.TypeTilePlayed && rows[k+1].typ == domain.TypeTilePlayed {
				break
			}
		}
		if k+1 >= len(rows) {
			t.Fatal("no two plays in a row")
		}
		// A store keeps seq as the key, so a swap exchanges what two seqs hold.
		a, b := &rows[k], &rows[k+1]
		a.typ, b.typ, a.data, b.data, a.at, b.at = b.typ, a.typ, b.data, a.data, b.at, a.at
		if rehashed {
			rehash(rows)
		}
		return rows, rows[k].seq
	}
}

func changeReadModel(_ *testing.T, rows []tamperRow, sum *domain.Summary) ([]tamperRow, int) {
	sum.Scores = slices.Clone(sum.Scores)
	sum.Scores[0] += 5
	return rows, 0
}

func alterSeed(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	last := &rows[len(rows)-1]
	rewrite(t, last, func(d domain.EventData) domain.EventData {
		me := d.(domain.MatchEnded)
		me.Seed = matchtest.Seed(99).String()
		return me
	})
	rehash(rows)
	return rows, last.seq
}

func reorderBoneyard(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	k := findRow(t, rows, 2, func(d domain.EventData) bool { _, ok := d.(domain.HandStarted); return ok })
	rewrite(t, &rows[k], func(d domain.EventData) domain.EventData {
		h := d.(domain.HandStarted)
		h.Boneyard[0], h.Boneyard[1] = h.Boneyard[1], h.Boneyard[0]
		return h
	})
	rehash(rows)
	return rows, rows[k].seq
}

func dealTwice(t *testing.T, rows []tamperRow, _ *domain.Summary) ([]tamperRow, int) {
	rewrite(t, &rows[1], func(d domain.EventData) domain.EventData {
		h := d.(domain.HandStarted)
		h.Hands[1][0] = h.Hands[0][0]
		return h
	})
	rehash(rows)
	return rows, rows[1].seq
}
