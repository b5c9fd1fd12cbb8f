package reports

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/tuner"
)

// FuzzBuild feeds arbitrary run.json and front.json contents to the
// report: whatever passes the run checks must build, render and tabulate
// without a panic.
func FuzzBuild(f *testing.F) {
	// The fixture run, with four of its six solutions (presets moved with
	// them): every figure, table and preset kind still appears, and the
	// fuzzer mutates and minimizes 3 KB instead of 5.5 KB, each try of
	// which renders an SVG figure.
	r := testRun()
	keep := []int{1, 3, 4, 5}
	sols := make([]tuner.Solution, len(keep))
	for i, k := range keep {
		sols[i] = r.Front.Solutions[k]
	}
	r.Front.Solutions = sols
	for i := range r.Meta.Presets {
		r.Meta.Presets[i].Row = slices.Index(keep, r.Meta.Presets[i].Row)
	}
	if err := r.check(); err != nil {
		f.Fatal(err)
	}
	meta, _ := json.Marshal(r.Meta)
	front, _ := json.Marshal(r.Front)
	f.Add(meta, front)
	f.Add([]byte(`{"presets":[{"name":"p","row":0}]}`), []byte(`{"objectives":[{"name":"qos_p90"},{"name":"energy_kwh"}],"solutions":[{"config":{"name":"idle-timeout"}}]}`))
	f.Fuzz(func(t *testing.T, metaJSON, frontJSON []byte) {
		run := &Run{Dir: "fuzz", Meta: new(tuner.RunMeta), Front: new(tuner.Front)}
		if json.Unmarshal(metaJSON, run.Meta) != nil || json.Unmarshal(frontJSON, run.Front) != nil || run.check() != nil {
			return
		}
		if len(run.Front.Objectives) > 4 || len(run.Front.Solutions) > 50 {
			return // keep each input fast
		}
		rep, err := Build(run, Options{NoTimeline: true})
		if err != nil {
			return
		}
		if _, err := rep.Figures()[0].Render(SVG); err != nil {
			t.Fatal(err)
		}
		if _, err := rep.Markdown(); err != nil {
			t.Fatal(err)
		}
		if _, err := rep.CSV(); err != nil {
			t.Fatal(err)
		}
		if _, err := rep.HTML(map[string][]byte{}); err == nil && len(rep.Fronts) > 0 {
			t.Fatal("HTML without rendered figures: no error")
		}
	})
}
