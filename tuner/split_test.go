package tuner

import (
	"testing"

	"github.com/ecotune/ecotune/datasets"
)

func TestHoldout(t *testing.T) {
	tr := &datasets.Trace{Jobs: make([]datasets.Job, 10)}
	for i := range tr.Jobs {
		tr.Jobs[i].ID = int64(i)
	}
	tests := []struct {
		frac       float64
		train, tst int
		err        bool
	}{
		{0.7, 7, 3, false},
		{0.75, 8, 2, false}, // round(7.5)
		{1, 10, 0, false},
		{0.04, 0, 0, true}, // round(0.4): no training job
		{0, 0, 0, true},
		{1.2, 0, 0, true},
	}
	for _, tc := range tests {
		train, test, err := holdout(tr, tc.frac)
		if (err != nil) != tc.err {
			t.Errorf("frac %g: error %v, want error %v", tc.frac, err, tc.err)
			continue
		}
		if err != nil {
			continue
		}
		if len(train.Jobs) != tc.train || (test == nil) != (tc.tst == 0) || (test != nil && len(test.Jobs) != tc.tst) {
			t.Errorf("frac %g: %d train jobs, test %v; want %d and %d", tc.frac, len(train.Jobs), test, tc.train, tc.tst)
		}
		if test != nil && test.Jobs[0].ID != int64(tc.train) {
			t.Errorf("frac %g: test starts at job %d, want %d (chronological)", tc.frac, test.Jobs[0].ID, tc.train)
		}
		// Appending to the train split must not overwrite the test split.
		if test != nil {
			_ = append(train.Jobs, datasets.Job{ID: -9})
			if test.Jobs[0].ID == -9 {
				t.Error("train and test share capacity")
			}
		}
	}
}
