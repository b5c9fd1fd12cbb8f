package datasets

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// rangeInputs are records whose processor count is 2^63 (beyond int64) or
// 99999999999 (beyond MaxProcs, and int32), in every log format, with the
// field the error must name (issue 36 item 4: they read as "syntax error"
// or a bare "value out of range"). They seed the readers' fuzz corpora.
var rangeInputs = []struct {
	format, field, log string
}{
	{"swf", "allocated_procs", "1 0 10 100 %s -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1\n"},
	{"swf", "requested_procs", "1 0 10 100 4 -1 -1 %s 3600 -1 1 1 1 -1 1 -1 -1 -1\n"},
	{"argonne", "AllocatedNodes", "1\t100000000\t1\t2\t%s\t4\t-1\t-1\t-1\t-1\t2\t7\t-1\t-1\t-1\t-1\t-1\t-1\n"},
	{"gwf", "NProcs", "1 1107330058 2 58 %s 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"},
	{"slurm", "NCPUS", "JobID|JobName|Submit|Start|End|State|NCPUS|Timelimit\n1|a|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|%s|1-00:00:00\n"},
	{"pbs", "resources_used.ncpus", "12/21/2009 15:27:00;E;6.edge;user=u group=g queue=q ctime=1 qtime=2 start=3 end=9 resources_used.ncpus=%s Resource_List.walltime=01:00:00 Exit_status=0\n"},
	{"sge", "slots", "# Version: 6.2\nq:h:g:o:j:9:a:0:1000000000:1000000100:1000000400:0:0:300:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:d:pe:%s:1:0:0:0:-l h_rt=01:30:00 -pe pe 4:0:NONE:0:0:0\n"},
	{"lsf", "numProcessors", `"JOB_FINISH" "9.11" 1389683139 404717 22025 33882739 %s 1389642318 0 0 1389642771 "u" "q" "" "" "" "h" "/" "" "" "" "j" 1 "h1" 2 "2*h1" "h2" 64 60.0 "n" "c"` + "\n"},
	{"oar", "walltime", `{"jobs": {"1": {"state": "Terminated", "submission_time": 1, "start_time": 2, "stop_time": 3, "resources": [1], "walltime": %s}}}`},
}

// rangeValues are the two sizes, and what the error must say of each: out
// of range, with the limit.
var rangeValues = []struct{ value, says string }{
	{"9223372036854775808", "out of range: beyond "},
	{"99999999999", "out of range: 99999999999 "},
}

// readAllStrict reads data as the import does (readLog: the reader, then
// the limits), in strict mode.
func readAllStrict(t *testing.T, format string, data []byte) error {
	t.Helper()
	_, err := readLog(bytes.NewReader(data), "big.log", ReadOptions{Format: format}, func(Job) error { return nil })
	return err
}

// Every reader reports a number beyond its limit as out of range (ErrRange)
// with the limit, naming file, line and field.
func TestOutOfRangeNumbers(t *testing.T) {
	for _, in := range rangeInputs {
		for _, v := range rangeValues {
			t.Run(in.format+"/"+in.field+"/"+v.value, func(t *testing.T) {
				err := readAllStrict(t, in.format, []byte(strings.Replace(in.log, "%s", v.value, 1)))
				var pe *ParseError
				switch {
				case err == nil:
					t.Fatal("read without error")
				case !errors.As(err, &pe) || !errors.Is(err, ErrRange):
					t.Fatalf("error %q (%T): want a *ParseError matching ErrRange", err, err)
				case pe.File != "big.log" || pe.Line < 1 || pe.Field == "":
					t.Errorf("error %q does not name file, line and field", err)
				case pe.Field != in.field:
					t.Errorf("error %q names field %q, want %q", err, pe.Field, in.field)
				case !strings.Contains(err.Error(), v.says):
					t.Errorf("error %q does not say %q", err, v.says)
				}
				t.Log(err)
			})
		}
	}
}

// Detecting the format, a first record of SWF's 18 fields with a number
// beyond int64 is reported out of range, not as a mere unknown format.
func TestOutOfRangeDetect(t *testing.T) {
	for _, v := range rangeValues[:1] {
		err := readAllStrict(t, "", []byte(strings.Replace(rangeInputs[0].log, "%s", v.value, 1)))
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrRange) || !errors.Is(err, ErrUnknownFmt) || pe.Field != "allocated_procs" ||
			!strings.Contains(err.Error(), "out of range: beyond the int64 maximum 9223372036854775807") {
			t.Errorf("%s: error %v; want an unknown format out of range in allocated_procs", v.value, err)
		}
	}
}
