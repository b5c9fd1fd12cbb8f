package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// limitRecords makes, for each reader that produces times, a log of two
// jobs: the first ordinary, the second with the value v in one time field
// (named field in the reader's errors). The second job's run time, wait or
// submit time is v itself or v minus a small start time.
// The reader makes of v the value v − base, which must be at most limit.
var limitRecords = []struct {
	format, field string
	base, limit   int64
	log           func(v int64) string
}{
	{"swf", "run_time", 0, MaxDuration, func(v int64) string {
		return "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
			fmt.Sprintf("2 10 0 %d 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", v)
	}},
	{"swf", "submit_time", 0, MaxTime, func(v int64) string {
		return "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
			fmt.Sprintf("2 %d 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", v)
	}},
	{"swf", "wait_time", 0, MaxDuration, func(v int64) string {
		return "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
			fmt.Sprintf("2 10 %d 100 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", v)
	}},
	{"swf", "requested_time", 0, MaxDuration, func(v int64) string {
		return "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
			fmt.Sprintf("2 10 0 100 1 -1 -1 1 %d -1 1 1 1 -1 1 -1 -1 -1\n", v)
	}},
	{"gwf", "RunTime", 0, MaxDuration, func(v int64) string {
		return "1 1107330058 2 58 2 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n" +
			fmt.Sprintf("2 1107330058 2 %d 2 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", v)
	}},
	{"argonne", "SubmitTime", 0, MaxTime, func(v int64) string {
		return "639487\t1672529301\t71\t3632\t8\t3600\t-1\t-1\t-1\t-1\t-1\t0\t-1\t-1\t-1\t-1\t-1\t-1\n" +
			fmt.Sprintf("639488\t%d\t71\t3632\t8\t3600\t-1\t-1\t-1\t-1\t-1\t0\t-1\t-1\t-1\t-1\t-1\t-1\n", v)
	}},
	{"slurm", "End", 1609459201, MaxDuration, func(v int64) string {
		return "JobID|Submit|Start|End|State|NCPUS|Timelimit\n" +
			"1|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|4|1-00:00:00\n" +
			"2|2021-01-01T00:00:00|2021-01-01T00:00:01|" + time.Unix(min(v, 253402300799), 0).UTC().Format("2006-01-02T15:04:05") + "|COMPLETED|4|1-00:00:00\n"
	}},
	{"pbs", "end", 3, MaxDuration, func(v int64) string {
		return "12/21/2009 15:27:00;E;6.edge;user=u group=g queue=q ctime=1 qtime=2 start=3 end=9 Resource_List.ncpus=2 Exit_status=0\n" +
			fmt.Sprintf("12/21/2009 15:27:00;E;7.edge;user=u group=g queue=q ctime=1 qtime=2 start=3 end=%d Resource_List.ncpus=2 Exit_status=0\n", v)
	}},
	{"sge", "end_time", 1000000100, MaxDuration, func(v int64) string {
		return "# Version: 6.2\n" + acctFuzzSGELine +
			strings.Replace(acctFuzzSGELine, ":1000000400:", ":"+strconv.FormatInt(v, 10)+":", 1)
	}},
	{"lsf", "eventTime", 1389642771, MaxDuration, func(v int64) string {
		rec := func(event int64) string {
			return fmt.Sprintf(`"JOB_FINISH" "9.11" %d 404717 22025 33882739 2 1389642318 0 0 1389642771 "u" "q" "" "" "" "h" "/" "" "" "" "j" 1 "h1" 2 "2*h1" "h2" 64 60.0 "n" "c"`+"\n", event)
		}
		return rec(1389683139) + rec(v)
	}},
	{"oar", "stop_time", 2, MaxDuration, func(v int64) string {
		return fmt.Sprintf(`{"jobs": {"1": {"state": "Terminated", "submission_time": 1, "start_time": 2, "stop_time": 3, "resources": [1], "walltime": 9},
"2": {"state": "Terminated", "submission_time": 1, "start_time": 2, "stop_time": %d, "resources": [1], "walltime": 9}}}`, v)
	}},
}

// TestTimesBeyondLimits reads each reader's log with the second job's time
// at, just beyond and far beyond the limits: at them it is read; beyond
// them the strict read fails, in under a second, with a ParseError of
// ErrRange naming the file, the job's line and the field, and the lenient
// read skips just that job and counts it as unreadable_<field>.
func TestTimesBeyondLimits(t *testing.T) {
	for _, rec := range limitRecords {
		for _, v := range []int64{rec.base + rec.limit, rec.base + rec.limit + 1, 1e15, 1e18, 1<<63 - 1} {
			t.Run(fmt.Sprintf("%s/%s=%d", rec.format, rec.field, v), func(t *testing.T) {
				log := rec.log(v)
				start := time.Now()
				jobs, err := limitRead(rec.format, log, false)
				took := time.Since(start)
				if v-rec.base <= rec.limit {
					if err != nil || len(jobs) != 2 {
						t.Fatalf("at the limit: %d jobs, %v", len(jobs), err)
					}
					return
				}
				var pe *ParseError
				if !errors.As(err, &pe) || !errors.Is(err, ErrRange) {
					t.Fatalf("beyond the limits: %d jobs, error %v: want a ParseError of ErrRange", len(jobs), err)
				}
				if pe.File != "x.log" || pe.Line < 2 || pe.Field != rec.field {
					t.Errorf("error %q: want file x.log, the second job's line and field %s", err, rec.field)
				}
				if took > time.Second {
					t.Errorf("refused after %v", took)
				}
				jobs, err = limitRead(rec.format, log, true)
				if err != nil || len(jobs) != 1 {
					t.Fatalf("lenient: %d jobs, %v; want the first job", len(jobs), err)
				}
			})
		}
	}
}

// limitRead reads log through the pipeline (readLog) as file x.log.
func limitRead(format, log string, lenient bool) ([]Job, error) {
	var jobs []Job
	m, err := readLog(strings.NewReader(log), "x.log", ReadOptions{Format: format, Lenient: lenient}, func(j Job) error {
		jobs = append(jobs, j)
		return nil
	})
	if err == nil && lenient {
		var n int64
		for k, c := range m.Skipped {
			if strings.HasPrefix(k, "unreadable_") {
				n += c
			}
		}
		if n != 1 {
			return jobs, fmt.Errorf("skipped %v: want one unreadable job", m.Skipped)
		}
	}
	return jobs, err
}

// TestSWFHeaderBeyondLimits: a header value that would size the machine
// or shift every time beyond the limits stops a strict read at its line,
// naming the key; a lenient read drops the value and counts it. At the
// limit the value is kept.
func TestSWFHeaderBeyondLimits(t *testing.T) {
	const job = "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	for _, c := range []struct {
		key       string
		v         int64
		beyond    bool
		nodes     int
		procs     int
		unixStart int64
	}{
		{"MaxProcs", 1_000_000_000_000, true, Unknown, Unknown, Unknown},
		{"MaxProcs", MaxProcs + 1, true, Unknown, Unknown, Unknown},
		{"MaxProcs", MaxProcs, false, Unknown, MaxProcs, Unknown},
		{"MaxNodes", 1_000_000_000, true, Unknown, Unknown, Unknown},
		{"MaxNodes", MaxNodes, false, MaxNodes, MaxNodes, Unknown},
		{"UnixStartTime", 1e18, true, Unknown, Unknown, Unknown},
		{"UnixStartTime", MaxTime, false, Unknown, Unknown, MaxTime},
		{"TimeZone", 1e18, true, Unknown, Unknown, Unknown},
	} {
		t.Run(fmt.Sprintf("%s=%d", c.key, c.v), func(t *testing.T) {
			log := fmt.Sprintf("; Version: 2.2\n; %s: %d\n%s", c.key, c.v, job)
			if c.key == "UnixStartTime" && !c.beyond {
				log = strings.Replace(log, "1 0 0 100", "1 -1 0 100", 1) // submit unknown: MaxTime + 0 would be fine, but keep the job out of the sums
			}
			start := time.Now()
			var jobs []Job
			m, err := readLog(strings.NewReader(log), "x.swf", ReadOptions{}, func(j Job) error { jobs = append(jobs, j); return nil })
			if !c.beyond {
				if err != nil || m.Nodes != c.nodes || m.Procs != c.procs || m.UnixStart != c.unixStart {
					t.Fatalf("at the limit: meta %d nodes %d procs start %d, %v", m.Nodes, m.Procs, m.UnixStart, err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrRange) || pe.Line != 2 || pe.Field != c.key || time.Since(start) > time.Second {
				t.Fatalf("error %v: want a ParseError of ErrRange at x.swf:2 naming %s, within a second", err, c.key)
			}
			m, err = readLog(strings.NewReader(log), "x.swf", ReadOptions{Lenient: true}, func(Job) error { return nil })
			if err != nil || m.Skipped["unreadable_"+c.key] != 1 || m.Procs != Unknown || m.Nodes != Unknown || m.UnixStart != Unknown || m.TZOffset != 0 {
				t.Fatalf("lenient: %v, meta %+v: want the value dropped and counted", err, m)
			}
		})
	}
}

// TestUnknownFormatNamesLineAndField: a first record that is SWF but for a
// NaN, an infinity or a number beyond int64 is an unknown format, and the
// error names its line and field.
func TestUnknownFormatNamesLineAndField(t *testing.T) {
	for _, c := range []struct {
		log, field string
		line       int
	}{
		{"; MaxProcs: 4\n\n1 0 0 NaN 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n", "run_time", 3},
		{"1 0 0 100 Inf -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n", "allocated_procs", 1},
		{"; x\n1 1e30 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n", "submit_time", 2},
		{"1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 +Inf\n", "think_time", 1},
		{"# comment\nhello world\n", "", 2},
	} {
		_, err := readLog(strings.NewReader(c.log), "x.log", ReadOptions{}, func(Job) error { return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrUnknownFmt) || pe.File != "x.log" || pe.Line != c.line || pe.Field != c.field {
			t.Errorf("%q: error %v: want unknown format at x.log:%d, field %q", c.log, err, c.line, c.field)
		}
	}
}

// TestSlurmRefusesDamagedCountsAndDates: sacct never writes a negative
// count nor a date past the limits; such a record is refused by field.
func TestSlurmRefusesDamagedCountsAndDates(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|NCPUS|NNodes\n"
	for _, c := range []struct {
		rec, field string
		sentinel   error
	}{
		{"1|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|4|-2\n", "NNodes", ErrSyntax},
		{"1|9999-12-31T23:59:59|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|4|1\n", "Submit", ErrRange},
		{"1|2021-01-01T00:00:00|9999-01-01T00:00:01|9999-01-01T00:01:00|COMPLETED|4|1\n", "Start", ErrRange},
		{"1|2021-01-01T00:00:00|2021-01-01T00:00:01|9999-01-01T00:01:00|COMPLETED|4|1\n", "End", ErrRange},
	} {
		_, err := readLog(strings.NewReader(head+c.rec), "x.log", ReadOptions{Format: "slurm"}, func(Job) error { return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, c.sentinel) || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("%q: error %v: want x.log:2 field %s (%v)", c.rec, err, c.field, c.sentinel)
		}
	}
}

// TestCheckJobsAndMachine: the checks for traces built in memory and for
// machine sizes, at and beyond each limit.
func TestCheckJobsAndMachine(t *testing.T) {
	ok := Job{ID: 1, Submit: MaxTime, Wait: MaxDuration, Run: MaxDuration, ReqTime: MaxDuration, Procs: MaxProcs, ReqProcs: MaxProcs}
	if err := CheckJobs([]Job{ok}); err != nil {
		t.Errorf("at the limits: %v", err)
	}
	for _, bad := range []func(j *Job){
		func(j *Job) { j.Submit++ }, func(j *Job) { j.Wait++ }, func(j *Job) { j.Run = 1<<63 - 1 },
		func(j *Job) { j.ReqTime++ }, func(j *Job) { j.Procs++ }, func(j *Job) { j.ReqProcs = 1<<31 - 1 },
	} {
		j := ok
		bad(&j)
		if err := CheckJobs([]Job{ok, j}); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), "job 1 (id 1)") {
			t.Errorf("%+v: %v, want ErrRange naming job 1", j, err)
		}
	}
	for _, c := range []struct {
		nodes, procs int64
		ok           bool
	}{{MaxNodes, MaxProcs, true}, {-1, -1, true}, {MaxNodes + 1, 1, false}, {1, MaxProcs + 1, false}, {1e12, 1e12, false}} {
		if err := CheckMachine(c.nodes, c.procs); (err == nil) != c.ok {
			t.Errorf("CheckMachine(%d, %d) = %v", c.nodes, c.procs, err)
		}
	}
}

// TestSynthLimits: a synthetic workload beyond the limits is refused
// before anything is generated or allocated.
func TestSynthLimits(t *testing.T) {
	for _, opt := range []SynthOptions{{Jobs: MaxJobs + 1, Nodes: 128}, {Jobs: 10, Nodes: MaxNodes + 1}, {Jobs: -1, Nodes: 128}, {Jobs: 10, Nodes: 0}} {
		start := time.Now()
		if _, err := SynthTrace(opt); err == nil || time.Since(start) > time.Second {
			t.Errorf("%+v: %v after %v, want refused at once", opt, err, time.Since(start))
		}
	}
	tr, err := SynthTrace(SynthOptions{Jobs: 10, Nodes: MaxNodes, Seed: 1})
	if err != nil || len(tr.Jobs) != 10 || CheckJobs(tr.Jobs) != nil {
		t.Errorf("at MaxNodes: %v", err)
	}
}

// TestParquetBeyondLimits: a Parquet trace (written by hand, or damaged)
// with a job or a machine beyond the limits is refused when read, naming
// the job and the field.
func TestParquetBeyondLimits(t *testing.T) {
	for _, c := range []struct {
		change func(tr *Trace)
		want   string
	}{
		{func(tr *Trace) { tr.Jobs[1].Run = 1e18 }, "job 1 (id 2): run"},
		{func(tr *Trace) { tr.Jobs[2].Submit = 1<<63 - 1 }, "job 2 (id -3): submit"},
		{func(tr *Trace) { tr.Meta.Procs = 1e12 }, "machine size in the metadata"},
	} {
		tr := roundTripTrace()
		var buf bytes.Buffer
		if err := WriteParquet(&buf, tr); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
			t.Fatalf("within the limits: %v", err)
		}
		c.change(tr)
		buf.Reset()
		if err := WriteParquet(&buf, tr); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len())); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want ErrRange naming %q", err, c.want)
		}
	}
}

// TestGWFHeaderBeyondLimits: the machine size of a GWF header beyond the
// limits stops a strict read naming the file, line and field; a lenient one drops it
// (the machine is then taken from the jobs) and counts it.
func TestGWFHeaderBeyondLimits(t *testing.T) {
	log := "# MaxProcs: 1000000000000\n1 1107330058 2 58 2 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
	_, err := readLog(strings.NewReader(log), "x.gwf", ReadOptions{}, func(Job) error { return nil })
	if !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), `x.gwf:1: field MaxProcs ("1000000000000")`) {
		t.Errorf("strict: %v", err)
	}
	tr, err := ReadLogs([]string{writeTemp(t, "x.gwf", log)}, ReadOptions{Lenient: true})
	if err != nil || len(tr.Jobs) != 1 || tr.Meta.Procs != 2 || tr.Meta.Skipped["unreadable_machine_size"] != 1 {
		t.Errorf("lenient: %v, %+v", err, tr)
	}
}
