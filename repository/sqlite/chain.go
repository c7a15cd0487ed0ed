package sqlite

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/repository/sqlrow"
)

// VerifyChain re-hashes a match's log from the stored bytes and reports the first seq where it
// breaks: a seq out of place (a gap or a deleted row), a prev_hash that is not the previous
// row's hash, or a hash that does not match the row's contents. It judges the events alone: a
// log shorter or longer than the version the read model records is reported by the audit's
// read-model check, since the chain cannot tell a deleted tail from an edited version, and
// must not blame an intact event for the read model's fault. HeadHash is the chain's head
// recomputed from what is stored.
//
// It reads in one transaction on the read pool, so the rows form one snapshot even while
// appends go on.
func (s *Store) VerifyChain(ctx context.Context, id string) (_ audit.ChainReport, err error) {
	defer domain.Wrap(&err, "verify %s", id)
	var (
		rows    []sqlrow.EventRow
		version []int
	)
	err = s.r.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&sqlrow.MatchRow{}).Where("id = ?", id).Pluck("version", &version).Error; err != nil {
			return err
		}
		return tx.Where("match_id = ?", id).Order("seq").Find(&rows).Error
	})
	if err != nil {
		return audit.ChainReport{}, err
	}
	if len(version) == 0 {
		return audit.ChainReport{}, fmt.Errorf("verify %q: %w", id, domain.ErrMatchNotFound)
	}
	return audit.VerifyLinks(toLinks(rows)), nil
}

// Links returns a match's stored log as the chain sees it, in seq order: the payload bytes
// that were hashed and the hashes stored beside them (docs/api-records.md, "Verifying an export").
func (s *Store) Links(ctx context.Context, id string) (_ []audit.ChainLink, err error) {
	defer domain.Wrap(&err, "links of %s", id)
	var (
		rows  []sqlrow.EventRow
		found int64
	)
	err = s.r.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&sqlrow.MatchRow{}).Where("id = ?", id).Count(&found).Error; err != nil {
			return err
		}
		return tx.Where("match_id = ?", id).Order("seq").Find(&rows).Error
	})
	if err != nil {
		return nil, err
	}
	if found == 0 {
		return nil, fmt.Errorf("links %q: %w", id, domain.ErrMatchNotFound)
	}
	return toLinks(rows), nil
}

func toLinks(rows []sqlrow.EventRow) []audit.ChainLink {
	links := make([]audit.ChainLink, len(rows))
	for i, r := range rows {
		links[i] = audit.ChainLink{Seq: r.Seq, Type: domain.EventType(r.Type), Data: []byte(r.Data), PrevHash: r.PrevHash, Hash: r.Hash}
	}
	return links
}
