package postgres

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/allfives/allfives/domain"
)

// IsURL says whether db names a PostgreSQL database rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// ParseURL reads a postgres:// or postgresql:// URL. Besides pgx's own parameters (host, port,
// sslmode, connect_timeout, application_name, default_query_exec_mode, ...) and PostgreSQL
// settings such as statement_timeout and lock_timeout (sent to the server as-is, in
// milliseconds or with a unit: 5s), it takes the pool's, which it removes before pgx sees the
// URL:
//
//   - pool_max_conns: Options.MaxConns
//   - pool_max_conn_lifetime: Options.ConnMaxLifetime, a Go duration (30m)
//   - tx_retries: Options.TxRetries (0 keeps the default; -1 never retries)
func ParseURL(raw string) (*pgx.ConnConfig, Options, error) {
	var o Options
	if !IsURL(raw) {
		return nil, o, domain.Invalidf("a PostgreSQL URL starts with postgres:// or postgresql://")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url's error quotes the URL, password included: say only what is wrong.
		return nil, o, domain.Invalidf("malformed PostgreSQL URL")
	}
	q := u.Query()
	ints := map[string]*int{"pool_max_conns": &o.MaxConns, "tx_retries": &o.TxRetries}
	for name, dst := range ints {
		if v := q.Get(name); q.Has(name) {
			n, err := strconv.Atoi(v)
			if err != nil || (name == "pool_max_conns" && n < 1) || n < -1 {
				return nil, o, domain.Invalidf("URL parameter %s: %q is not a valid count", name, v)
			}
			*dst = n
			q.Del(name)
		}
	}
	if v := q.Get("pool_max_conn_lifetime"); q.Has("pool_max_conn_lifetime") {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, o, domain.Invalidf("URL parameter pool_max_conn_lifetime: %q is not a positive duration", v)
		}
		o.ConnMaxLifetime = d
		q.Del("pool_max_conn_lifetime")
	}
	u.RawQuery = q.Encode()
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, o, fmt.Errorf("PostgreSQL URL %s: %w", Redact(raw), errorWithout(err, u))
	}
	return cfg, o, nil
}

// over returns base with the fields set in o (from a URL) put over it.
func (o Options) over(base Options) Options {
	if o.MaxConns != 0 {
		base.MaxConns = o.MaxConns
	}
	if o.TxRetries != 0 {
		base.TxRetries = o.TxRetries
	}
	if o.ConnMaxLifetime != 0 {
		base.ConnMaxLifetime = o.ConnMaxLifetime
	}
	return base
}

// Redact is url with its password replaced, for logs and errors.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://(malformed URL)"
	}
	return u.Redacted()
}

// errorWithout is err as text with the URL's password removed: pgx's parse errors may quote
// the connection string.
func errorWithout(err error, u *url.URL) error {
	msg := err.Error()
	if p, ok := u.User.Password(); ok && p != "" {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
		msg = strings.ReplaceAll(msg, url.QueryEscape(p), "xxxxx")
	}
	return domain.Invalidf("%s", msg)
}
