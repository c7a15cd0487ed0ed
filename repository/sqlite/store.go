package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// DefaultPath is the database file used when Open is given an empty path.
const DefaultPath = "allfives.db"

// busyTimeoutMS is how long a connection waits for another process's lock before SQLITE_BUSY.
// Within one process writes never contend (the committer and the other writes take turns on
// Store.writing), so this only matters when two processes share the file, e.g. `allfives
// migrate` beside a running server.
const busyTimeoutMS = 10000

// Options tune Open. The zero value is the safe default.
type Options struct {
	// Sync is SQLite's synchronous setting for the writer: "full" (the default, also for ""),
	// "normal" or "off".
	//
	//   - full: a commit returns only once it is on disk; an acknowledged move survives a crash
	//     of the process, the OS or the machine.
	//   - normal: in WAL mode the database stays consistent, and a process crash loses nothing,
	//     but a power loss or OS crash may roll back the last moves that were already
	//     acknowledged to players (their commits were in the OS cache, not on disk).
	//   - off: SQLite never waits for the disk; a power loss or OS crash may lose recent moves
	//     and can corrupt the database file. For throwaway data and benchmarks only.
	Sync string
	// ReadConns is the size of the read pool; 0 means max(4, GOMAXPROCS).
	ReadConns int
	// NoMigrate skips running the migrations in Open, for `allfives migrate`, which calls
	// Migrate itself to report what it applied.
	NoMigrate bool
	// BusyTimeout is how long a connection waits for another process's lock before the
	// operation fails with storeerr.ErrStoreBusy; 0 means 10 s.
	BusyTimeout time.Duration
	// Logger receives what the store skips rather than fails on (a damaged history row);
	// nil means slog.Default().
	Logger *slog.Logger
}

// minFreeBytes is the free space a disk whose writes failed must have again before the store
// says it is ready: room for a good many moves.
const minFreeBytes = 1 << 20

// Store is the SQLite event store. It is safe for concurrent use.
type Store struct {
	w     *gorm.DB // the writer for all but appends; transactions begin IMMEDIATE
	r     *gorm.DB // the read pool; query_only, so a stray write fails loudly
	log   *slog.Logger
	dir   string      // the database file's directory, whose disk readiness watches
	fault writeFault  // the last write's failure for want of space or write access
	rdb   *sql.DB     // r's database/sql pool, for the scan of events
	wc    *writerConn // the committer's connection: appends (writerconn.go)
	gc    *committer  // the group commit of appends (commit.go)
	// writing is held by the committer while it writes a batch, by creates and the readiness
	// probe on w, and by the checkpointer to copy the WAL's last frames with the committer
	// paused (checkpoint.go).
	writing sync.Mutex
	ck      *checkpointer // checkpoints off the commit path (checkpoint.go)
	heads   headCache     // the heads this store last wrote (lean.go)
	keys    keyCache      // players by the hash of their key (players.go)
}

var _ referee.EventStore = (*Store)(nil)

// Open opens (creating if needed) the database at path, sets up the writer and the read pool,
// and, unless opts.NoMigrate, runs the migrations.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		path = DefaultPath
	}
	if path == ":memory:" || strings.Contains(path, "?") {
		// An in-memory database would be private to each connection, so the read pool would
		// see another, empty database; a '?' would be read as the start of the DSN options.
		return nil, fmt.Errorf("open %q: need a file path without '?'", path)
	}
	// SQLite would report a missing directory as "out of memory (14)"; name the real cause.
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if !opts.NoMigrate {
		if err := canWrite(path); err != nil {
			return nil, fmt.Errorf("open %s: the database cannot be written (a read-only file, directory or mount?): %v", path, err)
		}
	}
	busy := busyTimeoutMS
	if opts.BusyTimeout > 0 {
		busy = int(opts.BusyTimeout.Milliseconds())
	}
	level, err := syncLevel(opts.Sync)
	if err != nil {
		return nil, err
	}
	// The writer opens first: it switches the file to WAL before any reader looks at it.
	w, err := openGorm(writerDSN(path, level, busy), 1)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	readers := opts.ReadConns
	if readers <= 0 {
		readers = max(4, runtime.GOMAXPROCS(0))
	}
	r, err := openGorm(readerDSN(path, busy), readers)
	if err != nil {
		closeGorm(w)
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	rdb, err := r.DB()
	if err != nil {
		closeGorm(r)
		closeGorm(w)
		return nil, err
	}
	wc, err := openWriter(path, writerPragmas(level, busy))
	if err != nil {
		closeGorm(r)
		closeGorm(w)
		return nil, err
	}
	ck, err := sql.Open("sqlite", ckDSN(path, level, busy))
	if err != nil {
		wc.close()
		closeGorm(r)
		closeGorm(w)
		return nil, err
	}
	ck.SetMaxOpenConns(1)
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Store{w: w, r: r, log: opts.Logger, dir: filepath.Dir(path), rdb: rdb, wc: wc}
	s.ck = newCheckpointer(ck, &s.writing)
	s.gc = newCommitter(s)
	if !opts.NoMigrate {
		if _, err := s.Migrate(ctx); err != nil {
			s.Close()
			if sqliteCode(err) == sqliteReadOnly {
				return nil, fmt.Errorf("open %s: the database cannot be written (a read-only file, directory or mount?): %v", path, err)
			}
			return nil, err
		}
		if err := s.writable(ctx, path); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// walSizeLimit is the size the WAL file is cut back to when it starts again from its beginning
// after a burst made it longer (SQLite's journal_size_limit): big enough that a steady load
// overwrites the file instead of growing it again.
const walSizeLimit = 64 << 20

// syncLevel is SQLite's synchronous setting for Options.Sync.
func syncLevel(sync string) (string, error) {
	level := map[string]string{"": "FULL", "full": "FULL", "normal": "NORMAL", "off": "OFF"}[strings.ToLower(sync)]
	if level == "" {
		return "", domain.Invalidf("sync must be full, normal or off, not %q", sync)
	}
	return level, nil
}

// writerPragmas are the settings of both writer connections, gorm's and the committer's.
// busy_timeout comes first so that the pragmas after it wait for a lock instead of failing.
func writerPragmas(level string, busyMS int) []string {
	return []string{fmt.Sprintf("busy_timeout(%d)", busyMS), "journal_mode(WAL)", "foreign_keys(1)",
		"synchronous(" + level + ")", "wal_autocheckpoint(0)", fmt.Sprintf("journal_size_limit(%d)", walSizeLimit)}
}

// writerDSN is the glebarez/go-sqlite DSN of gorm's writer: each _pragma runs on every new
// connection, and _txlock=immediate makes every transaction BEGIN IMMEDIATE, so that a write
// takes the write lock before it reads what it checks.
func writerDSN(path, level string, busyMS int) string {
	return path + "?_pragma=" + strings.Join(writerPragmas(level, busyMS), "&_pragma=") + "&_txlock=immediate"
}

// ckDSN is the checkpointer's DSN (checkpoint.go), at the writers' sync level.
func ckDSN(path, level string, busyMS int) string {
	return fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=synchronous(%s)", path, busyMS, level)
}

// readerDSN is the read pool's DSN: query_only makes any write on it an error.
func readerDSN(path string, busyMS int) string {
	return fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=query_only(1)", path, busyMS)
}

// openGorm opens one pool. TranslateError turns constraint violations into gorm's
// ErrDuplicatedKey, which the append maps to a version conflict; SkipDefaultTransaction
// because every write here already runs in an explicit transaction.
func openGorm(dsn string, conns int) (*gorm.DB, error) {
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{
		TranslateError:         true,
		SkipDefaultTransaction: true,
		Logger:                 logger.Discard,
	})
	if err != nil {
		return nil, err
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	sqlDB.SetMaxOpenConns(conns)
	sqlDB.SetMaxIdleConns(conns) // keep them: each new connection re-runs the pragmas
	return db, nil
}

func closeGorm(db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Close lets the appends already queued commit, refuses new ones, and closes both pools. The
// last connection to close checkpoints the WAL into the file. Calling it twice is harmless.
func (s *Store) Close() error {
	s.gc.close()
	var wcErr error
	if s.wc != nil {
		wcErr = s.wc.close()
		s.wc = nil
	}
	ckErr := s.ck.close()
	return errors.Join(wcErr, ckErr, closeGorm(s.r), closeGorm(s.w))
}

// Ping checks that both pools can reach the database, for readiness probes. While writes fail
// for want of space or write access it fails too: it tries one empty write, and once that
// succeeds the store is ready again by itself.
func (s *Store) Ping(ctx context.Context) (err error) {
	defer domain.Wrap(&err, "ping database")
	if fault := s.fault.err.Load(); fault != nil {
		// A small write may fit where a move's does not: the disk must also have room.
		if free, ok := freeSpace(s.dir); ok && free < minFreeBytes {
			return fmt.Errorf("%w: %d bytes free on the database's disk; the last write failed: %v", storeerr.ErrStoreFull, free, *fault)
		}
		err := s.probeWrite(ctx)
		s.wrote(&err)
		if err != nil {
			return err
		}
	}
	for _, db := range []*gorm.DB{s.r, s.w} {
		var one int
		if err := db.WithContext(ctx).Raw("SELECT 1").Scan(&one).Error; err != nil {
			return err
		}
	}
	return nil
}
