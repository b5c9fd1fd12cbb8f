package daemon

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// Hand-worked history on policy.Features: nodes idle since the start, a
// node idle again at Slurm's last-busy time, arrivals fed once, a failed
// resume counted once with LastFailed, the day rolled at local midnight
// as the simulator rolls it.
func TestHistoryUpdate(t *testing.T) {
	const day0 = 86400 * 100
	h := NewHistory(day0+3600, 0, []string{"a", "b"})
	ev := h.Update(day0+3600, []Node{{Name: "a", Power: policy.Idle, LastBusy: day0 + 3000}, {Name: "b", Power: policy.Off}, {Name: "x", Power: policy.Idle}},
		[]Job{{ID: 5, CPUs: 2, Submit: day0 + 3500, Running: true, Nodes: []string{"a"}}})
	if len(ev) != 0 {
		t.Errorf("events %v", ev)
	}
	if a := h.F.Node(0); a.State != policy.Idle || a.IdleSince != day0+3600 {
		t.Errorf("a %+v: want idle since the start, as the simulator starts", a)
	}
	if b := h.F.Node(1); b.State != policy.Off || b.Since != day0+3600 {
		t.Errorf("b %+v: want off since 3600", b)
	}
	h.Update(day0+3700, []Node{{Name: "a", Power: policy.Busy, AllocCPUs: 2}, {Name: "b", Power: policy.Off}},
		[]Job{{ID: 5, CPUs: 2, Submit: day0 + 3500, Running: true}, {ID: 6, CPUs: 3, Submit: day0 + 3650}})
	failed := []Node{{Name: "a", Power: policy.Idle, LastBusy: day0 + 3790}, {Name: "b", Power: policy.Off, ResumeFailed: true, Unavailable: "down"}}
	ev = h.Update(day0+3800, failed, nil)
	if a := h.F.Node(0); a.State != policy.Idle || a.Since != day0+3790 || a.IdleSince != day0+3790 {
		t.Errorf("a %+v: want idle since its last busy time 3790", a)
	}
	if b := h.F.Node(1); b.LastFailed != day0+3800 || h.ResumeFailures != 1 || len(ev) != 1 || ev[0].Node != "b" {
		t.Errorf("b %+v, failures %d, events %v: want one failure at 3800", b, h.ResumeFailures, ev)
	}
	if ev := h.Update(day0+3805, failed, nil); len(ev) != 0 || h.ResumeFailures != 1 {
		t.Errorf("the same failure counted again: %v", ev)
	}
	want := []policy.Arrival{{Time: day0 + 3500, Slots: 2}, {Time: day0 + 3650, Slots: 3}}
	if got := h.F.Recent(); !reflect.DeepEqual(got, want) {
		t.Errorf("recent %+v, want %+v", got, want)
	}
	// Two midnights later: the first day taken as it is, then smoothed.
	// Job 5 (2 slots) fell in local hour 0, job 6 (3 slots) in hour 1.
	h.Update(day0+86400+10, nil, []Job{{ID: 7, CPUs: 7, Submit: day0 + 86400 + 5}})
	if hs := h.F.HourlySlots(); hs[0] != 2 || hs[1] != 3 {
		t.Errorf("after day 1: hourly[0:2] = %v, want 2, 3", hs[:2])
	}
	h.Update(day0+2*86400+10, nil, nil)
	if hs := h.F.HourlySlots(); hs[0] != 2+5.0/7 || hs[1] != 3-3.0/7 {
		t.Errorf("after day 2: hourly[0:2] = %v, want 2+5/7, 3−3/7", hs[:2])
	}
}

func TestHistorySaveLoad(t *testing.T) {
	dir := t.TempDir()
	h := NewHistory(1000, 3600, []string{"a", "b"})
	h.Update(1100, []Node{{Name: "a", Power: policy.Busy, AllocCPUs: 1}, {Name: "b", Power: policy.Off, ResumeFailed: true, Unavailable: "down"}},
		[]Job{{ID: 1, CPUs: 1, Submit: 1050}})
	if err := h.Save(dir); err != nil {
		t.Fatal(err)
	}
	g, ok, err := LoadHistory(dir)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	a, _ := json.Marshal(h)
	b, _ := json.Marshal(g)
	if !bytes.Equal(a, b) || g.MaxJobID != 1 || !g.Failed["b"] {
		t.Errorf("round trip:\n%s\n%s", b, a)
	}
	if _, ok, err := LoadHistory(t.TempDir()); ok || err != nil {
		t.Errorf("empty dir: %v %v", ok, err)
	}
	for _, bad := range []string{`{"version":2}`, `{"version":1,"nodes":["a"]}`, `{"version":1,"nodes":["a","a"],"features":` + string(mustFeatures(t, 2)) + `}`,
		`{"version":1,"nodes":["a"],"failed":["z"],"features":` + string(mustFeatures(t, 1)) + `}`} {
		if _, err := ParseHistory([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func mustFeatures(t *testing.T, n int) []byte {
	b, err := json.Marshal(policy.NewFeatures(10, 0, n))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzParseHistory(f *testing.F) {
	seed := NewHistory(1000, 0, []string{"a"})
	seed.Update(1100, []Node{{Name: "a", Power: policy.Idle}}, []Job{{ID: 1, CPUs: 1, Submit: 1050}})
	data, _ := json.Marshal(seed)
	f.Add(data)
	f.Add([]byte(`{"version":1,"nodes":[],"features":{"version":1,"start":5,"now":4}}`))
	f.Add([]byte(`{"version":1,"nodes":["a"],"failed":["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHistory(data)
		if err != nil {
			return
		}
		// A state that loads can be fed and saved again.
		var nodes []Node
		for _, n := range h.Names {
			nodes = append(nodes, Node{Name: n, Power: policy.Busy, AllocCPUs: 1})
		}
		h.Update(h.F.Now()+1, nodes, []Job{{ID: h.MaxJobID + 1, CPUs: 1, Submit: h.F.Now()}})
		if len(h.F.Recent()) > policy.RecentCap {
			t.Fatalf("recent grew to %d", len(h.F.Recent()))
		}
		out, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseHistory(out); err != nil {
			t.Fatalf("saved state does not load: %v\n%s", err, out)
		}
	})
}
