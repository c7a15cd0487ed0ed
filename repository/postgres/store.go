package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// Defaults of Options, chosen for one server instance on a small machine; how to size them
// for more is in (docs/operations.md, "Pool and timeouts").
const (
	DefaultMaxConns         = 16
	DefaultStatementTimeout = 10 * time.Second
	DefaultLockTimeout      = 5 * time.Second
	DefaultTxRetries        = 3
	DefaultConnMaxLifetime  = 30 * time.Minute
)

// Options tune Open. The zero value takes the defaults above.
type Options struct {
	// MaxConns caps the instance's pool: every instance holds up to this many connections, so
	// instances times MaxConns must stay under the server's max_connections.
	MaxConns int
	// StatementTimeout is PostgreSQL's statement_timeout for every connection of the pool: a
	// statement running longer (a lock wait included) is cancelled and its request fails,
	// instead of holding a connection indefinitely. A statement_timeout given in the URL wins.
	StatementTimeout time.Duration
	// LockTimeout is PostgreSQL's lock_timeout for every connection of the pool: how long a
	// statement waits for a lock another transaction holds (an append to the same match
	// stuck behind a slow one, a migration) before it fails with storeerr.ErrStoreBusy (503
	// STORE_BUSY). A lock_timeout given in the URL wins.
	LockTimeout time.Duration
	// TxRetries is how many times a transaction that failed with a serialization failure or a
	// deadlock (SQLSTATE 40001, 40P01) is run again. At READ COMMITTED, the isolation every
	// transaction here asks for, appends serialize on a row lock and neither happens, so this
	// guards against a server configured otherwise (default_transaction_isolation) and a
	// replica's recovery conflicts. Negative means never retry.
	TxRetries int
	// ConnMaxLifetime closes connections older than this, so a pool rebalances after a
	// failover or behind a connection balancer.
	ConnMaxLifetime time.Duration
	// ListenURL, when set, is the URL Listen connects to instead of the pool's: a pooler in
	// transaction mode (PgBouncer) cannot hold a LISTEN, so the pool's URL names the pooler
	// and this one the server itself (docs/operations.md, "Connection pooler").
	ListenURL string
	// NoMigrate skips running the migrations in Open, for `allfives migrate`, which calls
	// Migrate itself to report what it applied.
	NoMigrate bool
	// Logger receives what the store skips rather than fails on (a damaged history row);
	// nil means slog.Default().
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.StatementTimeout <= 0 {
		o.StatementTimeout = DefaultStatementTimeout
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.TxRetries == 0 {
		o.TxRetries = DefaultTxRetries
	}
	if o.ConnMaxLifetime <= 0 {
		o.ConnMaxLifetime = DefaultConnMaxLifetime
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Store is the PostgreSQL event store. It is safe for concurrent use, by several processes too.
type Store struct {
	db      *gorm.DB
	sqlDB   *sql.DB
	conn    *pgx.ConnConfig // for the listener's own connection
	retries int
	log     *slog.Logger
	direct  *sql.DB // Options.ListenURL's database, for migrations; nil: sqlDB
	// listenDown is why Listen is not listening while it runs, for Ping; nil when it listens
	// or does not run (notify.go).
	listenDown atomic.Pointer[error]
	heads      headBatch // Head's concurrent checks, one query at a time (headbatch.go)
}

var (
	_ referee.EventStore = (*Store)(nil)
	_ referee.Notifier   = (*Store)(nil)
)

// Open connects to the database named by url (postgres:// or postgresql://, with pgx's
// parameters; see ParseURL for the pool's), sets up the pool and, unless opts.NoMigrate, runs
// the migrations. Options set in the URL win over opts.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	cfg, fromURL, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	opts = fromURL.over(opts).withDefaults()
	if _, ok := cfg.RuntimeParams["statement_timeout"]; !ok {
		cfg.RuntimeParams["statement_timeout"] = fmt.Sprint(opts.StatementTimeout.Milliseconds())
	}
	if _, ok := cfg.RuntimeParams["lock_timeout"]; !ok {
		cfg.RuntimeParams["lock_timeout"] = fmt.Sprint(opts.LockTimeout.Milliseconds())
	}
	sqlDB := stdlib.OpenDB(*cfg)
	sqlDB.SetMaxOpenConns(opts.MaxConns)
	sqlDB.SetMaxIdleConns(opts.MaxConns)
	sqlDB.SetConnMaxLifetime(opts.ConnMaxLifetime)
	// TranslateError stays off: the store reads SQLSTATEs itself (errors.go), which tells a
	// lost race from a key reused and a retryable failure from a fatal one.
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), &gorm.Config{
		SkipDefaultTransaction: true,
		Logger:                 logger.Discard,
	})
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	s := &Store{db: db, sqlDB: sqlDB, conn: cfg, retries: max(opts.TxRetries, 0), log: opts.Logger}
	if opts.ListenURL != "" {
		if s.conn, _, err = ParseURL(opts.ListenURL); err != nil {
			sqlDB.Close()
			return nil, fmt.Errorf("listen URL: %w", err)
		}
		// Migrations hold a session advisory lock, which a pooler in transaction mode would
		// take on one server connection and release on another: they go direct too.
		s.direct = stdlib.OpenDB(*s.conn)
		s.direct.SetMaxOpenConns(2)
	}
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	if !opts.NoMigrate {
		if _, err := s.Migrate(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Close closes the pool. A listener (Listen) ends with its own context.
func (s *Store) Close() error {
	if s.direct != nil {
		s.direct.Close()
	}
	return s.sqlDB.Close()
}

// DB is the pool, for its statistics (the server exports them as metrics).
func (s *Store) DB() *sql.DB { return s.sqlDB }

// Ping checks that the database answers a query and, while Listen runs, that it listens: an
// instance that cannot hear the others' moves would serve stale matches. For readiness probes.
func (s *Store) Ping(ctx context.Context) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "ping database")
	var one int
	if err := s.db.WithContext(ctx).Raw("SELECT 1").Scan(&one).Error; err != nil {
		return err
	}
	if down := s.listenDown.Load(); down != nil {
		return *down
	}
	return nil
}
