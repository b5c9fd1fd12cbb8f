package reports

import (
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// BenchmarkCompareNASA is `ecotune compare` on the NASA-iPSC trace: every
// policy, always-on and the oracle first.
func BenchmarkCompareNASA(b *testing.B) {
	tr := nasaTrace(b)
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	entries := DefaultEntries()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(tr, c, entries, CompareOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReportNASA is what `ecotune tune` adds at the end of a run on
// the default trace: replay of the picked solution, every figure in
// every format, HTML, Markdown, CSV and Paraver.
func BenchmarkReportNASA(b *testing.B) {
	r, test := nasaRun(b)
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		rep, err := Build(r, Options{Test: test})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := rep.WriteDir(dir, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParaverNASA converts the node-state timeline of an idle-timeout
// replay of the NASA-iPSC test split.
func BenchmarkParaverNASA(b *testing.B) {
	_, test := nasaRun(b)
	c, err := sim.ClusterFromTrace(test.Meta)
	if err != nil {
		b.Fatal(err)
	}
	p, err := policy.New(idleTimeoutConfig(600, 0))
	if err != nil {
		b.Fatal(err)
	}
	res, err := sim.Run(test, c, p, sim.Options{Timeline: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ReportMetric(float64(len(res.Timeline.Changes)), "changes")
	for b.Loop() {
		if _, err := NewParaver(res.Timeline, res.TIni, res.TEnd); err != nil {
			b.Fatal(err)
		}
	}
}
