package daemon

import (
	"fmt"
	"testing"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// testutilCounter reads one unlabelled counter of m.
func testutilCounter(t testing.TB, m *Metrics, name string) float64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			var sum float64
			for _, x := range mf.GetMetric() {
				sum += x.GetCounter().GetValue()
			}
			return sum
		}
	}
	return 0
}
