package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/repository/storetest"
)

// TestCheckpointsOffTheCommitPath: with automatic checkpoints off, the checkpointer still
// copies the WAL into the database file as commits accumulate, and what it copied reads back
// after a reopen.
func TestCheckpointsOffTheCommitPath(t *testing.T) {
	s, path := openTest(t)
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	fs := created(t, s, "ck-", 4, 0)
	for range 2 * checkpointEvery / len(fs) {
		for _, f := range fs {
			if err := s.Append(context.Background(), f.Next(t)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for size() <= before {
		time.Sleep(10 * time.Millisecond) // the checkpoint runs on its own goroutine
	}
	var auto int
	if err := s.w.Raw("PRAGMA wal_autocheckpoint").Scan(&auto).Error; err != nil || auto != 0 {
		t.Fatalf("the writer's wal_autocheckpoint is %d (%v), want 0", auto, err)
	}
	reopened(t, s, path, fs)
}

// walRestarts reads how many times the WAL at path was started again from its beginning: the
// checkpoint sequence number in its header.
func walRestarts(t *testing.T, path string) uint32 {
	t.Helper()
	f, err := os.Open(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 16)
	if _, err := f.ReadAt(head, 0); err != nil {
		t.Fatal(err)
	}
	return binary.BigEndian.Uint32(head[12:])
}

// TestCheckpointStartsTheWALAgain: a checkpoint that runs while a batch is being written waits
// for that batch and copies it too, so the next commit starts the WAL again from its beginning
// instead of appending to it. Under a steady load a checkpoint always overlaps a batch; copying
// only what was committed when it began let the WAL grow without end.
func TestCheckpointStartsTheWALAgain(t *testing.T) {
	s, path := openTest(t)
	fs := created(t, s, "wal-", 2, 3)
	g := hold(s, nil)
	release := sync.OnceFunc(func() { close(g.open) })
	t.Cleanup(release) // before the store closes: Close waits for the held batch
	held := make(chan error, 1)
	go func() { held <- s.Append(context.Background(), fs[0].Next(t)) }()
	<-g.entered // a batch is open: its transaction began before the checkpoint
	before := walRestarts(t, path)
	copied := make(chan struct{})
	go func() { s.ck.checkpoint(context.Background()); close(copied) }()
	select {
	case <-copied:
		t.Fatal("the checkpoint ended while a batch was open: it did not copy that batch")
	case <-time.After(300 * time.Millisecond):
	}
	release()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	<-copied
	if err := s.Append(context.Background(), fs[1].Next(t)); err != nil {
		t.Fatal(err)
	}
	if after := walRestarts(t, path); after == before {
		t.Fatalf("the WAL's checkpoint sequence stayed at %d: the commit after a checkpoint did not start it again", before)
	}
	for _, f := range fs {
		sameLog(t, s, f.Record.ID, f.Events)
	}
}

// TestCreatesCountTowardsCheckpoints: creates alone (a lobby filling up, the load tool making
// its matches) also lead to checkpoints, so the WAL starts again from its beginning; before,
// only the committer's batches were counted and 6,000 creates grew the WAL to 350 MB.
func TestCreatesCountTowardsCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "creates.db")
	s, err := Open(context.Background(), path, Options{Sync: "off"}) // creates, not fsyncs, are tested
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	create := func(i int) {
		f := storetest.NewFixture(t, fmt.Sprintf("create-%d", i), storetest.Base, 1000)
		if err := f.Create(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	before := walRestarts(t, path)
	n := 0
	for ; n < checkpointEvery; n++ {
		create(n)
	}
	// The checkpoint runs on its own goroutine, and the WAL starts again at the write after it.
	for deadline := time.Now().Add(20 * time.Second); walRestarts(t, path) == before; n++ {
		if time.Now().After(deadline) {
			t.Fatalf("%d creates and the WAL's checkpoint sequence is still %d: creates do not lead to checkpoints", n, before)
		}
		create(n)
		time.Sleep(5 * time.Millisecond)
	}
}
