package sqlrow

import (
	"context"
	"log/slog"

	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
)

// Migrate applies the migrations provider p has not applied yet, in order, and returns their
// file names (none when the schema is current).
func Migrate(ctx context.Context, p *goose.Provider) ([]string, error) {
	results, err := p.Up(ctx)
	if err != nil {
		return nil, err
	}
	applied := make([]string, 0, len(results))
	for _, r := range results {
		applied = append(applied, r.Source.Path)
	}
	return applied, nil
}

// AfterMigrate does what the migrations leave to Go once they are applied: the name skeletons
// SQL cannot compute (BackfillNameSkeletons). Each player left without one, its name looking
// like an older player's, is logged as a warning when it is found: such a pair was made before
// migration 00012, and an operator may want to tell the two apart.
func AfterMigrate(ctx context.Context, db *gorm.DB, log *slog.Logger) error {
	left, err := BackfillNameSkeletons(db.WithContext(ctx))
	if err != nil {
		return err
	}
	for _, p := range left {
		log.Warn("a player's name looks like an older player's: both are kept, and no new player may take a name like either",
			"player_id", p.ID, "name", p.Name, "like_player_id", p.Like)
	}
	return nil
}
