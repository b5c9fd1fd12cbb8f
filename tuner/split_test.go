package tuner

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/datasets"
)

// What Tune writes as run.json's split, HoldoutOf reads back to the same
// train and test jobs.
func TestHoldoutOfRoundTrip(t *testing.T) {
	tr := &datasets.Trace{Jobs: make([]datasets.Job, 10)}
	for i := range tr.Jobs {
		tr.Jobs[i] = datasets.Job{ID: int64(i + 1), Submit: int64(100 * i)}
	}
	for _, frac := range []float64{0.7, 0.75, 0.5, 1} {
		wantTrain, wantTest, err := holdout(tr, frac)
		if err != nil {
			t.Fatal(err)
		}
		train, test, err := HoldoutOf(tr, splitName(frac))
		if err != nil {
			t.Fatalf("%g: %v", frac, err)
		}
		if !reflect.DeepEqual(train, wantTrain) || !reflect.DeepEqual(test, wantTest) {
			t.Errorf("%g: HoldoutOf(%q) differs from the split Tune made", frac, splitName(frac))
		}
	}
	if train, test, err := HoldoutOf(tr, ""); err != nil || train != tr || test != nil {
		t.Errorf("empty split: %v, %v, %v; want the whole trace and no test", train, test, err)
	}
	for _, bad := range []string{"chronological jobs 0", "chronological jobs 0.01", "chronological time 0.7", "random 0.7"} {
		if _, _, err := HoldoutOf(tr, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
