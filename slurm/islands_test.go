package slurm

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestIslandJobs: the array covers islands 0..N-1 and both scripts run the
// quoted executable on the quoted directory, writing their output under
// logDir; the array script names the two scripts to resubmit.
func TestIslandJobs(t *testing.T) {
	for _, tc := range []struct {
		name, exe, dir string
		islands        int
		want           []string // lines of the array script
		wantMerge      []string
	}{
		{"four islands", "/opt/ecotune", "/runs/r", 4,
			[]string{"#SBATCH --array=0-3", "#SBATCH --output=/runs/r/islands/slurm-%A_%a.out", "#   sbatch --parsable --array=I /runs/r/tune.sbatch", "#   sbatch --dependency=afterok:NEWID /runs/r/merge.sbatch",
				`exec '/opt/ecotune' tune island '/runs/r' --index "$SLURM_ARRAY_TASK_ID" --workers "${SLURM_CPUS_PER_TASK:-0}"`},
			[]string{"#SBATCH --output=/runs/r/islands/slurm-merge-%j.out", `exec '/opt/ecotune' tune merge '/runs/r' --workers "${SLURM_CPUS_PER_TASK:-0}"`}},
		{"a quote in the paths", "/home/o'b/ecotune", "/runs/it's", 1,
			[]string{"#SBATCH --array=0-0", `exec '/home/o'\''b/ecotune' tune island '/runs/it'\''s' --index`},
			[]string{`exec '/home/o'\''b/ecotune' tune merge '/runs/it'\''s' --workers`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			array, merge := IslandJobs(tc.exe, tc.dir, tc.dir+"/islands", tc.islands)
			for _, s := range []string{array, merge} {
				if !strings.HasPrefix(s, "#!/bin/sh\n") || !strings.HasSuffix(s, "\n") {
					t.Errorf("script %q: want a #!/bin/sh script ending in a newline", s)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(array, w) {
					t.Errorf("array script lacks %q:\n%s", w, array)
				}
			}
			for _, w := range tc.wantMerge {
				if !strings.Contains(merge, w) {
					t.Errorf("merge script lacks %q:\n%s", w, merge)
				}
			}
			if strings.Contains(merge, "--array") || strings.Contains(merge, "tune island") {
				t.Errorf("merge script runs islands:\n%s", merge)
			}
		})
	}
}

// TestSubmitIslands: the array is submitted first, the merge after it
// with afterok on the array's id, both with the extra arguments; a failing
// sbatch's error names the command and its stderr (and, for the merge,
// that the array is submitted); an answer that is not a job id fails.
func TestSubmitIslands(t *testing.T) {
	const arr = "sbatch --parsable -p batch /r/tune.sbatch"
	const mrg = "sbatch --parsable -p batch --dependency=afterok:17 /r/merge.sbatch"
	for _, tc := range []struct {
		name               string
		out, fail          map[string]string
		wantArr, wantMerge string
		wantCalls          []string
		wantErr            []string // substrings of the error
	}{
		{name: "both submitted", out: map[string]string{arr: "17\n", mrg: "18;cluster\n"},
			wantArr: "17", wantMerge: "18", wantCalls: []string{arr, mrg}},
		{name: "array fails", fail: map[string]string{arr: "sbatch: error: invalid partition specified: batch"},
			wantCalls: []string{arr}, wantErr: []string{`"` + arr + `"`, "invalid partition specified"}},
		{name: "merge fails", out: map[string]string{arr: "17"}, fail: map[string]string{mrg: "sbatch: error: Batch job submission failed"},
			wantArr: "17", wantCalls: []string{arr, mrg}, wantErr: []string{`"` + mrg + `"`, "submission failed", "the array job 17 is submitted"}},
		{name: "not a job id", out: map[string]string{arr: "Submitted batch job 17"},
			wantCalls: []string{arr}, wantErr: []string{"not a job id", "Submitted batch job 17"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeRunner{out: tc.out, fail: tc.fail}
			a, m, err := NewClient(f).SubmitIslands(context.Background(), "/r/tune.sbatch", "/r/merge.sbatch", []string{"-p", "batch"})
			if a != tc.wantArr || m != tc.wantMerge {
				t.Errorf("ids %q, %q; want %q, %q", a, m, tc.wantArr, tc.wantMerge)
			}
			if !reflect.DeepEqual(f.calls, tc.wantCalls) {
				t.Errorf("ran %q, want %q", f.calls, tc.wantCalls)
			}
			if (err != nil) != (len(tc.wantErr) > 0) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
