package daemon

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// Hand-worked history: node a idle from its last busy time, busy, idle
// again; arrivals recorded once; the day rolled at local midnight as the
// simulator rolls it.
func TestFeaturesUpdate(t *testing.T) {
	managed := map[string]int{"a": 0, "b": 0}
	const day0 = 86400 * 100
	f := NewFeatures(day0+3600, 0)
	ev := f.Update(day0+3600, []Node{{Name: "a", Power: policy.Idle, LastBusy: day0 + 3000}, {Name: "b", Power: policy.Off}, {Name: "x", Power: policy.Idle}},
		managed, []Job{{ID: 5, CPUs: 2, Submit: day0 + 3500, Running: true, Nodes: []string{"a"}}})
	if len(ev) != 0 {
		t.Errorf("events %v", ev)
	}
	if a := f.Nodes["a"]; a.Since != day0+3000 || a.IdleSince != day0+3000 {
		t.Errorf("a %+v: want idle since its last busy time", a)
	}
	if _, ok := f.Nodes["x"]; ok {
		t.Error("unmanaged node tracked")
	}
	f.Update(day0+3700, []Node{{Name: "a", Power: policy.Busy, AllocCPUs: 2}, {Name: "b", Power: policy.Off}}, managed,
		[]Job{{ID: 5, CPUs: 2, Submit: day0 + 3500, Running: true}, {ID: 6, CPUs: 3, Submit: day0 + 3650}})
	f.Update(day0+3800, []Node{{Name: "a", Power: policy.Idle}, {Name: "b", Power: policy.Off, ResumeFailed: true, Unavailable: "down"}}, managed, nil)
	if a := f.Nodes["a"]; a.State != "idle" || a.Since != day0+3800 || a.IdleSince != day0+3800 {
		t.Errorf("a %+v: want idle since 3800", a)
	}
	if b := f.Nodes["b"]; !b.Failed || b.LastFailed != day0+3800 || f.ResumeFailures != 1 {
		t.Errorf("b %+v, failures %d", b, f.ResumeFailures)
	}
	want := []policy.StateArrival{{Time: day0 + 3500, Slots: 2}, {Time: day0 + 3650, Slots: 3}}
	if !reflect.DeepEqual(f.Recent, want) {
		t.Errorf("recent %+v, want %+v", f.Recent, want)
	}
	// Two midnights later: the first day taken as it is, then smoothed.
	f.Update(day0+86400+10, nil, managed, []Job{{ID: 7, CPUs: 7, Submit: day0 + 86400 + 5}})
	// Job 5 (2 slots) in local hour 0, job 6 (3 slots) in hour 1.
	if f.Hourly[0] != 2 || f.Hourly[1] != 3 || !f.Rolled {
		t.Errorf("after day 1: hourly[0:2] = %v, want 2, 3", f.Hourly[:2])
	}
	f.Update(day0+2*86400+10, nil, managed, nil)
	// Day 2 had job 7 (7 slots) in hour 0: h += (today − h)/7.
	if f.Hourly[0] != 2+5.0/7 || f.Hourly[1] != 3-3.0/7 {
		t.Errorf("after day 2: hourly[0:2] = %v, want 2+5/7, 3−3/7", f.Hourly[:2])
	}
}

func TestFeaturesSaveLoad(t *testing.T) {
	dir := t.TempDir()
	f := NewFeatures(1000, 3600)
	f.Update(1100, []Node{{Name: "a", Power: policy.Idle}}, map[string]int{"a": 0}, []Job{{ID: 1, CPUs: 1, Submit: 1050}})
	if err := f.Save(dir); err != nil {
		t.Fatal(err)
	}
	g, ok, err := LoadFeatures(dir)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if !reflect.DeepEqual(f, g) {
		t.Errorf("round trip: %+v, want %+v", g, f)
	}
	if _, ok, err := LoadFeatures(t.TempDir()); ok || err != nil {
		t.Errorf("empty dir: %v %v", ok, err)
	}
}

func FuzzParseFeatures(f *testing.F) {
	seed := NewFeatures(1000, 0)
	seed.Update(1100, []Node{{Name: "a", Power: policy.Idle}}, map[string]int{"a": 0}, []Job{{ID: 1, CPUs: 1, Submit: 1050}})
	data, _ := jsonMarshal(seed)
	f.Add(data)
	f.Add([]byte(`{"version":1,"start":5,"last":4}`))
	f.Add([]byte(`{"version":1,"nodes":{"a":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseFeatures(data)
		if err != nil {
			return
		}
		// A state that loads can be fed and saved again.
		g.Update(g.Last+1, []Node{{Name: "a", Power: policy.Busy, AllocCPUs: 1}}, map[string]int{"a": 0}, []Job{{ID: g.MaxJobID + 1, CPUs: 1, Submit: g.Last}})
		if len(g.Recent) > policy.RecentCap {
			t.Fatalf("recent grew to %d", len(g.Recent))
		}
		out, err := jsonMarshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFeatures(out); err != nil {
			t.Fatalf("saved state does not load: %v", err)
		}
	})
}
