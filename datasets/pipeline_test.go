package datasets

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestLogMeta: logMeta completes a reader's metadata; a machine size
// beyond the limits stops a strict read and is dropped and counted in a
// lenient one.
func TestLogMeta(t *testing.T) {
	sum := []byte{0xab, 0xcd}
	m, err := logMeta(Meta{Nodes: 4, Procs: 8}, "swf", "x/a.swf.gz", ReadOptions{}, map[string]int64{}, sum)
	want := Meta{Format: "swf", Name: "a", Nodes: 4, Procs: 8, Sources: []Source{{Path: "x/a.swf.gz", SHA256: "abcd"}}}
	if err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v, %v\nwant %+v", m, err, want)
	}
	m, err = logMeta(Meta{Format: "sge", Skipped: map[string]int64{"a": 1}}, "uge", "b.log", ReadOptions{}, map[string]int64{"b": 2}, sum)
	if err != nil || m.Format != "sge" || !reflect.DeepEqual(m.Skipped, map[string]int64{"a": 1, "b": 2}) {
		t.Errorf("format and skips: %+v, %v", m, err)
	}
	big := Meta{Nodes: MaxNodes + 1, Procs: 8, ProcsPerNode: 2}
	if _, err := logMeta(big, "swf", "c.swf", ReadOptions{}, map[string]int64{}, sum); !errors.Is(err, ErrRange) ||
		!strings.HasPrefix(err.Error(), "c.swf: machine size in the header: ") {
		t.Errorf("strict: %v", err)
	}
	m, err = logMeta(big, "swf", "c.swf", ReadOptions{Lenient: true}, map[string]int64{}, sum)
	if err != nil || m.Nodes != Unknown || m.Procs != Unknown || m.ProcsPerNode != Unknown || m.Skipped["unreadable_machine_size"] != 1 {
		t.Errorf("lenient: %+v, %v", m, err)
	}
}

// TestMergeMetas: the earliest known UnixStart, the last log's EndTime,
// "mixed" formats, the larger machine with a note, notes once and
// reservations sorted by start.
func TestMergeMetas(t *testing.T) {
	a := Meta{Name: "a", Format: "swf", Nodes: 4, Procs: 8, UnixStart: 200, EndTime: "x", Notes: []string{"n"},
		Reservations: []Reservation{{JobID: 1, Start: 50}}}
	b := Meta{Name: "b", Format: "gwf", Nodes: 8, Procs: 16, UnixStart: 100, Notes: []string{"n"},
		Reservations: []Reservation{{JobID: 2, Start: 10}}}
	c := Meta{Name: "c", Format: "swf", Nodes: 8, Procs: 16, UnixStart: Unknown, EndTime: "z"}
	m := mergeMetas([]Meta{a, b, c})
	if m.Name != "a" || m.Format != "mixed" || m.Nodes != 8 || m.Procs != 16 || m.UnixStart != 100 || m.EndTime != "z" {
		t.Errorf("got %+v", m)
	}
	if len(m.Notes) != 2 || m.Notes[0] != "n" || !strings.HasPrefix(m.Notes[1], "logs disagree on machine size (4 nodes, 8 procs vs 8, 16)") {
		t.Errorf("notes %q", m.Notes)
	}
	if len(m.Reservations) != 2 || m.Reservations[0].JobID != 2 || a.Reservations[0].JobID != 1 {
		t.Errorf("reservations %+v (first log's %+v)", m.Reservations, a.Reservations)
	}
}
