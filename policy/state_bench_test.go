package policy_test

import (
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// BenchmarkStateView measures State.View, the validation `ecotune decide`
// and the daemon run once per cycle, on the States of Views of a real run
// (SDSC-SP2, 128 nodes).
func BenchmarkStateView(b *testing.B) {
	views, _ := recordedViews(b)
	states := make([]*policy.State, len(views))
	for i, v := range views {
		states[i] = policy.StateOf(v)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		v := views[i]
		if _, err := states[i].View(v.Groups, v.Period); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(views) {
			i = 0
		}
	}
}
