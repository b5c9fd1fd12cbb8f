package datasets

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadersAllocateNothingPerRecord reads logs of 200 and 2,000 copies
// of the same records: the line readers must not allocate per record in
// steady state, so the two counts differ by little (buffers growing).
// OAR is left out: it decodes JSON objects, one allocation set per job.
func TestReadersAllocateNothingPerRecord(t *testing.T) {
	records := map[string]string{
		"gwf":     "1 1107330058 2 58 2 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
		"argonne": "639487\t1672529301\t71\t3632\t8\t3600\t-1\t-1\t-1\t-1\t-1\t7029\t-1\t-1\t-1\t-1\t-1\t-1\n",
		"pbs":     "01/26/2016 00:00:37;E;2994.pbs;user=u group=g queue=q ctime=1453756297 qtime=1453756297 start=1453766281 exec_host=c1/0*13+c2/0*13 exec_vnode=(c1:ncpus=13)+(c2:ncpus=13) Resource_List.select=2:ncpus=13 Resource_List.walltime=00:02:43 end=1453766437 Exit_status=0\n",
		"sge":     acctFuzzSGELine,
		"lsf":     `"JOB_FINISH" "9.11" 1389683139 404717 22025 33882739 2 1389642318 0 0 1389642771 "u" "q" "" "" "" "h" "/" "" "" "" "j" 0 2 "2*h1" "h2" 64 60.0 "n" "c"` + "\n",
		// distinct ids, so that the duplicate rule keeps every copy
		"slurm": "%d|%d|c|p|q|a|g|1|u|2|2015-06-26T13:57:00|2015-06-26T13:57:00|2015-06-28T02:55:50|2015-07-01T02:55:50|3-00:00:00|1:0|TIMEOUT|32|256|256|3000Mc|||3-00:00:00|n1|job|name\n",
	}
	for name, rec := range records {
		t.Run(name, func(t *testing.T) {
			allocs := func(n int) float64 {
				var b strings.Builder
				for i := range n {
					if name == "slurm" {
						b.WriteString(strings.ReplaceAll(rec, "%d", itoa(1000+i)))
					} else {
						b.WriteString(rec)
					}
				}
				log := b.String()
				jobs := 0
				a := testing.AllocsPerRun(3, func() {
					rd, err := acctFormat(t, name).NewReader(strings.NewReader(log), "x", ReadOptions{Format: name})
					if err != nil {
						t.Fatal(err)
					}
					for jobs = 0; ; jobs++ {
						if _, err := rd.Next(); err != nil {
							if !errors.Is(err, io.EOF) {
								t.Fatal(err)
							}
							break
						}
					}
				})
				if jobs != n {
					t.Fatalf("%d jobs from %d records", jobs, n)
				}
				return a
			}
			small, large := allocs(200), allocs(2000)
			// The Slurm reader's duplicate check keeps a map of recent runs,
			// which grows (amortised) with the records it remembers.
			limit := 20.0
			if name == "slurm" {
				limit = 200
			}
			if large-small > limit {
				t.Errorf("%.0f allocations for 200 records, %.0f for 2,000: they grow per record", small, large)
			}
		})
	}
}
