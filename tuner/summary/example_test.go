package summary_test

import (
	"fmt"

	"github.com/ecotune/ecotune/tuner/summary"
)

// A windows summary's table is windows.csv: a header, one row per window
// and, once every window finished, the mean and sd rows.
func ExampleWindowsSummary_Table() {
	s := &summary.WindowsSummary{Scores: []string{"qos_p90"}, PerWindow: []summary.Window{
		{K: 1, Train: summary.Block{FromJob: 0, ToJob: 10}, Test: summary.Block{FromJob: 10, ToJob: 20}, TestHypervolume: 0.5},
	}}
	for _, row := range s.Table() {
		fmt.Println(row[0], row[1], row[2], row[3], row[4], row[len(row)-1])
	}
	// Output:
	// k train_from_job train_to_job test_from_job test_to_job test_hypervolume
	// 1 0 10 10 20 0.5
}
