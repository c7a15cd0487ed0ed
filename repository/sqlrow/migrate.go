package sqlrow

import (
	"context"

	"github.com/pressly/goose/v3"
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
