package reports

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestWriteReportSwappedForLink writes a run's report again and again
// while another goroutine swaps report/ for a link to a directory outside
// the run and back (at least 200 swaps): nothing ever appears outside.
// Checking report/ and then opening its files by name would write there
// whenever the swap falls between the two.
func TestWriteReportSwappedForLink(t *testing.T) {
	dir := writeTestRun(t)
	outside := t.TempDir()
	rep := filepath.Join(dir, "report")
	if _, err := Write(dir, Options{NoTimeline: true}); err != nil {
		t.Fatal(err)
	}
	const minSwaps = 200
	var swaps atomic.Int64
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := os.Symlink(outside, rep+".link"); err != nil {
				done <- err
				return
			}
			if err := os.Rename(rep, rep+".real"); err != nil {
				done <- err
				return
			}
			if err := place(rep+".link", rep); err != nil {
				done <- err
				return
			}
			time.Sleep(200 * time.Microsecond)
			if err := os.Remove(rep); err != nil {
				done <- err
				return
			}
			if err := place(rep+".real", rep); err != nil {
				done <- err
				return
			}
			swaps.Add(1)
			time.Sleep(300 * time.Microsecond)
		}
	}()
	writes, refused := 0, 0
	deadline := time.Now().Add(2 * time.Minute)
	for swaps.Load() < minSwaps || writes < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes: %d swaps, %d writes", swaps.Load(), writes)
		}
		if _, err := Write(dir, Options{NoTimeline: true, Force: true}); err != nil {
			refused++
		}
		writes++
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Fatalf("after %d swaps: %d files outside, first %s", swaps.Load(), len(entries), entries[0].Name())
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("%d files outside, first %s", len(entries), entries[0].Name())
	}
	t.Logf("%d swaps during %d writes (%d refused or cut short): nothing outside", swaps.Load(), writes, refused)
}

// place renames from to to; when the writer has just made a new to (it
// found none: between two renames of the swap), that is removed first.
func place(from, to string) error {
	var err error
	for range 100 {
		if err = os.Rename(from, to); err == nil {
			return nil
		}
		os.RemoveAll(to)
	}
	return err
}
