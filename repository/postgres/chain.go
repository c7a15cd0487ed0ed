package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// VerifyChain re-hashes a match's log from the stored bytes and reports the first seq where it
// breaks: a seq out of place (a gap or a deleted row), a prev_hash that is not the previous
// row's hash, a hash that does not match the row's contents, or a log shorter or longer than
// the version the read model records (a deleted tail leaves no break inside the chain).
// HeadHash is the chain's head recomputed from what is stored.
//
// It reads in one REPEATABLE READ, read-only transaction, so the read model and the rows form
// one snapshot even while appends go on.
func (s *Store) VerifyChain(ctx context.Context, id string) (_ audit.ChainReport, err error) {
	defer domain.Wrap(&err, "verify %s", id)
	var (
		rows    []eventRow
		version []int
	)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&matchRow{}).Where("id = ?", id).Pluck("version", &version).Error; err != nil {
			return err
		}
		return tx.Where("match_id = ?", id).Order("seq").Find(&rows).Error
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return audit.ChainReport{}, err
	}
	if len(version) == 0 {
		return audit.ChainReport{}, fmt.Errorf("verify %q: %w", id, domain.ErrMatchNotFound)
	}
	links := make([]audit.ChainLink, len(rows))
	for i, r := range rows {
		links[i] = audit.ChainLink{Seq: r.Seq, Type: domain.EventType(r.Type), Data: []byte(r.Data), PrevHash: r.PrevHash, Hash: r.Hash}
	}
	rep := audit.VerifyLinks(links)
	if v := version[0]; rep.OK && v != len(rows) {
		return rep.Broken(min(v, len(rows))+1, fmt.Sprintf("the log holds %d events but the match is at version %d", len(rows), v)), nil
	}
	return rep, nil
}
