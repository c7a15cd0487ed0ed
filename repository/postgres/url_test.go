package postgres

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// TestParseURL: the pool's parameters are read and taken out of what pgx sees, PostgreSQL
// settings pass through, and a bad value is an invalid request that never shows the password.
func TestParseURL(t *testing.T) {
	cfg, o, err := ParseURL("postgresql://u:s3cret@db.example:6543/allfives?sslmode=disable&pool_max_conns=40&tx_retries=-1&pool_max_conn_lifetime=5m&statement_timeout=2s&application_name=a5")
	if err != nil {
		t.Fatal(err)
	}
	if o.MaxConns != 40 || o.TxRetries != -1 || o.ConnMaxLifetime != 5*time.Minute {
		t.Fatalf("options %+v", o)
	}
	if cfg.Host != "db.example" || cfg.Port != 6543 || cfg.Database != "allfives" || cfg.User != "u" || cfg.Password != "s3cret" {
		t.Fatalf("config %s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
	}
	if cfg.RuntimeParams["statement_timeout"] != "2s" || cfg.RuntimeParams["application_name"] != "a5" {
		t.Fatalf("runtime params %v", cfg.RuntimeParams)
	}
	for _, p := range []string{"pool_max_conns", "tx_retries", "pool_max_conn_lifetime"} {
		if _, ok := cfg.RuntimeParams[p]; ok {
			t.Errorf("%s reached the server's settings", p)
		}
	}
	got := o.over(Options{MaxConns: 3, TxRetries: 2}).withDefaults()
	if got.MaxConns != 40 || got.TxRetries != -1 || got.StatementTimeout != DefaultStatementTimeout {
		t.Fatalf("URL over options: %+v", got)
	}

	for _, bad := range []string{
		"postgres://u:s3cret@h/db?pool_max_conns=0",
		"postgres://u:s3cret@h/db?pool_max_conns=many",
		"postgres://u:s3cret@h/db?tx_retries=-2",
		"postgres://u:s3cret@h/db?pool_max_conn_lifetime=soon",
		"postgres://u:s3cret@h:notaport/db",
		"mysql://u:s3cret@h/db",
	} {
		_, _, err := ParseURL(bad)
		if !errors.Is(err, domain.ErrInvalid) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: got %v, want an invalid request without the password", bad, err)
		}
	}
	if r := Redact("postgres://u:s3cret@h/db"); strings.Contains(r, "s3cret") {
		t.Errorf("Redact kept the password: %s", r)
	}
	if !IsURL("postgres://h/db") || !IsURL("postgresql://h/db") || IsURL("allfives.db") || IsURL("/var/postgres://x") {
		t.Error("IsURL")
	}
}
