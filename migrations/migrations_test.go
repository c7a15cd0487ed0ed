package migrations

import (
	"io/fs"
	"slices"
	"testing"
)

// TestBothDialectsHoldFiles: each dialect's folder holds exactly Files, so a migration added in
// one dialect and not the other, or without its line in Files, fails at once.
func TestBothDialectsHoldFiles(t *testing.T) {
	for name, dialect := range map[string]fs.FS{"sqlite": SQLite, "postgres": Postgres} {
		files, err := fs.Glob(dialect, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(files)
		if !slices.Equal(files, Files) {
			t.Errorf("%s holds %v, Files lists %v", name, files, Files)
		}
	}
	if LatestVersion() != int64(len(Files)) {
		t.Errorf("the last migration is version %d of %d files: numbers must run without gaps", LatestVersion(), len(Files))
	}
}
