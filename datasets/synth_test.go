package datasets

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

// The same seed gives the same jobs; another seed other jobs.
func TestSynthDeterministic(t *testing.T) {
	a, err := SynthTrace(SynthOptions{Jobs: 2000, Nodes: 128, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SynthTrace(SynthOptions{Jobs: 2000, Nodes: 128, Seed: 7})
	c, _ := SynthTrace(SynthOptions{Jobs: 2000, Nodes: 128, Seed: 8})
	if !reflect.DeepEqual(a, b) {
		t.Error("seed 7 twice gave different traces")
	}
	if reflect.DeepEqual(a.Jobs, c.Jobs) {
		t.Error("seeds 7 and 8 gave the same jobs")
	}
}

// Properties of the published model on its reference machine of 128
// nodes, over 50,000 jobs: sizes within the machine, the share of serial
// jobs between the interactive (15.4 %) and batch (29.3 %) parameters,
// most parallel jobs powers of two, run times below e^12 s, and the daily
// cycle: more arrivals in the working day than at night.
func TestSynthModelProperties(t *testing.T) {
	tr, err := SynthTrace(SynthOptions{Jobs: 50000, Nodes: 128, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkTraceInvariants(t, tr)
	var serial, parallel, pow2 int
	for _, j := range tr.Jobs {
		if j.Procs < 1 || j.Procs > 128 || j.Run < 1 || j.Run > int64(math.Exp(lublinMaxLogRun)) {
			t.Fatalf("job out of range: %+v", j)
		}
		switch {
		case j.Procs == 1:
			serial++
		case j.Procs&(j.Procs-1) == 0:
			parallel++
			pow2++
		default:
			parallel++
		}
	}
	if share := float64(serial) / float64(len(tr.Jobs)); share < 0.154 || share > 0.293 {
		t.Errorf("serial share %.3f outside [0.154, 0.293]", share)
	}
	if share := float64(pow2) / float64(parallel); share < 0.7 {
		t.Errorf("power-of-two share of parallel jobs %.3f, want > 0.7", share)
	}
	s := Inspect(tr)
	day, night := s.ArrivalsByHour[10]+s.ArrivalsByHour[14], s.ArrivalsByHour[2]+s.ArrivalsByHour[4]
	if day < 2*night {
		t.Errorf("arrivals at 10h+14h = %d, at 2h+4h = %d: no daily cycle", day, night)
	}
}

// Sizes scale with the machine and never exceed it.
func TestSynthMachineSize(t *testing.T) {
	for _, nodes := range []int{1, 8, 1024} {
		tr, err := SynthTrace(SynthOptions{Jobs: 5000, Nodes: nodes, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var largest int32
		for _, j := range tr.Jobs {
			largest = max(largest, j.Procs)
		}
		if largest > int32(nodes) || nodes >= 8 && largest < int32(nodes)/2 {
			t.Errorf("%d nodes: largest job %d", nodes, largest)
		}
	}
	if _, err := NewSynth(SynthOptions{Jobs: 1, Nodes: 0}); err == nil {
		t.Error("0 nodes accepted")
	}
}

// Written as SWF and as Parquet, a synthetic trace reads back the same.
func TestWriteSynth(t *testing.T) {
	opt := SynthOptions{Jobs: 3000, Nodes: 64, Seed: 5}
	want, _ := SynthTrace(opt)
	dir := t.TempDir()
	for _, name := range []string{"s.parquet", "s.swf", "s.swf.gz"} {
		path := filepath.Join(dir, name)
		if _, err := WriteSynth(path, opt, false); err != nil {
			t.Fatal(err)
		}
		got, err := Open(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Jobs, want.Jobs) {
			t.Errorf("%s: jobs differ", name)
		}
		if got.Meta.Nodes != 64 || got.Meta.Procs != 64 {
			t.Errorf("%s: machine %d nodes, %d procs", name, got.Meta.Nodes, got.Meta.Procs)
		}
	}
}

// The typeless model on 256 nodes reproduces the distributions of the
// archive's lublin_256.swf (made by the reference program with the same
// parameters): median and p90 job size 8 and 64, mean run time 4,863 s.
func TestSynthTypelessMatchesLublin256(t *testing.T) {
	ref, err := Open(tracePath(t, "synthetic/lublin_256.swf"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	syn, err := SynthTrace(SynthOptions{Jobs: 10000, Nodes: 256, Seed: 1, Typeless: true})
	if err != nil {
		t.Fatal(err)
	}
	r, s := Inspect(ref), Inspect(syn)
	if s.ProcsQuantiles.P50 != r.ProcsQuantiles.P50 || s.ProcsQuantiles.P90 != r.ProcsQuantiles.P90 {
		t.Errorf("size quantiles %v, reference %v", s.ProcsQuantiles, r.ProcsQuantiles)
	}
	if rel := s.RunQuantiles.Mean/r.RunQuantiles.Mean - 1; math.Abs(rel) > 0.1 {
		t.Errorf("mean run %.0f s, reference %.0f s", s.RunQuantiles.Mean, r.RunQuantiles.Mean)
	}
	if rel := float64(s.RunQuantiles.P50)/float64(r.RunQuantiles.P50) - 1; math.Abs(rel) > 0.2 {
		t.Errorf("median run %d s, reference %d s", s.RunQuantiles.P50, r.RunQuantiles.P50)
	}
}
