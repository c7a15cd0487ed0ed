package sqlite

import "github.com/allfives/allfives/migrations"

// Migrations is every migration in the order goose applies them (migrations.Files, which its
// own test checks against both dialects' folders).
var Migrations = migrations.Files

// LatestVersion is the version a fully migrated schema reports.
func LatestVersion() int64 { return migrations.LatestVersion() }
