package exchange

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ecotune/ecotune/tuner/search"
)

// population is island i's members, told apart by their values.
func population(i int) []search.Member {
	return []search.Member{{X: []float64{float64(i), 0.5}, F: []float64{float64(10 * i)}, Rank: i}}
}

// TestMigrateRing runs three islands as goroutines, each in a ring taking
// its left neighbour's migrants through the files: every island gets
// exactly what its neighbour wrote, and nobody is skipped.
func TestMigrateRing(t *testing.T) {
	dir := t.TempDir()
	const islands = 3
	got := make([]map[int][]search.Member, islands)
	errs := make([]error, islands)
	var wg sync.WaitGroup
	for i := range islands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := &FileExchange{Dir: dir, Fingerprint: "plan", MigrationEvery: 5, Timeout: 30 * time.Second, Poll: time.Millisecond}
			got[i], errs[i] = x.Migrate(context.Background(), 5, i, population(i), []int{(i + islands - 1) % islands})
			if s := x.TakeSkipped(); len(s) != 0 {
				t.Errorf("island %d skipped %v", i, s)
			}
		}()
	}
	wg.Wait()
	for i := range islands {
		left := (i + islands - 1) % islands
		if errs[i] != nil {
			t.Fatalf("island %d: %v", i, errs[i])
		}
		if !reflect.DeepEqual(got[i][left], population(left)) {
			t.Errorf("island %d got %v from %d, want %v", i, got[i][left], left, population(left))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, IslandsDir, "epoch-1", "island-2.json")); err != nil {
		t.Errorf("epoch file: %v", err)
	}
}

// TestMigrateRefusesLinks plants a symbolic link to a directory outside
// the run at islands/ and at the epoch's directory: the migration is
// refused naming the link, and nothing is written outside.
func TestMigrateRefusesLinks(t *testing.T) {
	for _, sub := range []string{IslandsDir, IslandsDir + "/epoch-1"} {
		t.Run(sub, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			link := filepath.Join(dir, sub)
			if err := os.MkdirAll(filepath.Dir(link), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			x := &FileExchange{Dir: dir, Fingerprint: "plan", MigrationEvery: 5, Timeout: time.Second}
			_, err := x.Migrate(context.Background(), 5, 0, population(0), nil)
			if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				t.Errorf("Migrate: %v, want the link %s refused", err, link)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("%d entries written outside the run", len(entries))
			}
		})
	}
}

// TestMigrateRefusesAnotherPlan: a file of another plan at the epoch is
// an error naming the file, not a migrant.
func TestMigrateRefusesAnotherPlan(t *testing.T) {
	dir := t.TempDir()
	other := &FileExchange{Dir: dir, Fingerprint: "other", MigrationEvery: 5, Timeout: time.Second}
	if _, err := other.Migrate(context.Background(), 5, 1, population(1), nil); err != nil {
		t.Fatal(err)
	}
	x := &FileExchange{Dir: dir, Fingerprint: "plan", MigrationEvery: 5, Timeout: time.Second, Poll: time.Millisecond}
	_, err := x.Migrate(context.Background(), 5, 0, population(0), []int{1})
	if err == nil || !strings.Contains(err.Error(), "island-1.json") || !strings.Contains(err.Error(), "another run") {
		t.Errorf("Migrate: %v, want the other plan's file refused", err)
	}
}

// TestBeatRefusesLinks: the heartbeat is touched through the run
// directory's root; an island directory planted as a link is refused,
// and nothing is written outside.
func TestBeatRefusesLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, IslandsDir), 0o777); err != nil {
		t.Fatal(err)
	}
	link := IslandDir(dir, 0)
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	x := &FileExchange{Dir: dir, Timeout: time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := x.Beat(ctx, 0); err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Errorf("Beat: %v, want the link refused", err)
	}
	if x.alive(0) {
		t.Error("an island behind a link counts as alive")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("%d entries written outside", len(entries))
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(link, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := x.Beat(ctx, 0); err != nil || !x.alive(0) {
		t.Errorf("Beat in a real directory: %v, alive %v", err, x.alive(0))
	}
}
