package datasets_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// A Slurm sacct log read job by job: the step is folded into its
// allocation and the pending job is counted, not returned.
func ExampleFormats_slurm() {
	const log = "JobID|Submit|Start|End|State|NCPUS|Timelimit\n" +
		"42|2021-01-01T00:00:00|2021-01-01T00:00:30|2021-01-01T01:00:30|COMPLETED|16|02:00:00\n" +
		"42.batch|2021-01-01T00:00:00|2021-01-01T00:00:30|2021-01-01T01:00:30|COMPLETED|16|\n" +
		"43|2021-01-01T00:05:00|Unknown|Unknown|PENDING|8|1-00:00:00\n"
	head := []byte(log)
	format, err := datasets.Detect(head)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := format.NewReader(strings.NewReader(log), "sacct.log", datasets.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s job %d: wait %d s, run %d s on %d procs, limit %d s, status %d\n",
			format.Name, j.ID, j.Wait, j.Run, j.Procs, j.ReqTime, j.Status)
	}
	fmt.Println("skipped:", r.Meta().Skipped)
	// Output:
	// slurm job 42: wait 30 s, run 3600 s on 16 procs, limit 7200 s, status 1
	// skipped: map[not_ended:1]
}
