package repository

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
)

// VerifyChain re-hashes a match's log from the stored bytes and reports the first seq where it
// breaks: a seq out of place (a gap or a deleted row), a prev_hash that is not the previous
// row's hash, a hash that does not match the row's contents, or a log shorter or longer than
// the version the read model records (a deleted tail leaves no break inside the chain).
// HeadHash is the chain's head recomputed from what is stored.
//
// It reads in one transaction on the read pool, so the rows form one snapshot even while
// appends go on.
func (s *Store) VerifyChain(ctx context.Context, id string) (_ domain.ChainReport, err error) {
	defer wrap(&err, "verify %s", id)
	var (
		rows    []eventRow
		version []int
	)
	err = s.r.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&matchRow{}).Where("id = ?", id).Pluck("version", &version).Error; err != nil {
			return err
		}
		return tx.Where("match_id = ?", id).Order("seq").Find(&rows).Error
	})
	if err != nil {
		return domain.ChainReport{}, err
	}
	if len(version) == 0 {
		return domain.ChainReport{}, fmt.Errorf("verify %q: %w", id, domain.ErrMatchNotFound)
	}
	rep := domain.ChainReport{OK: true, Events: len(rows)}
	var prev []byte
	for i, r := range rows {
		want := domain.ChainHash(prev, r.Seq, domain.EventType(r.Type), []byte(r.Data))
		switch {
		case r.Seq != i+1:
			return broken(rep, i+1, fmt.Sprintf("seq %d is missing: the next stored event is seq %d", i+1, r.Seq)), nil
		case !bytes.Equal(r.PrevHash, prev):
			return broken(rep, r.Seq, "prev_hash is not the previous event's hash"), nil
		case !bytes.Equal(r.Hash, want):
			return broken(rep, r.Seq, "hash does not match the stored type and data"), nil
		}
		prev = want
	}
	rep.HeadHash = hex.EncodeToString(prev)
	if v := version[0]; v != len(rows) {
		return broken(rep, min(v, len(rows))+1, fmt.Sprintf("the log holds %d events but the match is at version %d", len(rows), v)), nil
	}
	return rep, nil
}

func broken(rep domain.ChainReport, seq int, detail string) domain.ChainReport {
	rep.OK, rep.FirstBadSeq, rep.Detail = false, seq, detail
	return rep
}
