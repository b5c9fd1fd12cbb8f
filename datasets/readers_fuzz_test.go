package datasets

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// acctFuzzMaxJobs bounds the jobs read from one input (a Slurm array
// record may stand for millions).
const acctFuzzMaxJobs = 20000

// acctFuzzRead reads data with the named reader, checking the reader's
// contract: no panic, errors are *ParseError naming the file and a line,
// and no job has a run time or processor count below Unknown.
func acctFuzzRead(t *testing.T, name string, data []byte, lenient bool) ([]Job, error) {
	rd, err := acctFormat(t, name).NewReader(bytes.NewReader(data), "fuzz.log", ReadOptions{Format: name, Lenient: lenient})
	if err != nil {
		acctFuzzCheckErr(t, err)
		return nil, err
	}
	var jobs []Job
	for len(jobs) < acctFuzzMaxJobs {
		j, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			acctFuzzCheckErr(t, err)
			if again, err2 := rd.Next(); err2 == nil || again != (Job{}) {
				t.Fatalf("Next after error %v returned %+v, %v", err, again, err2)
			}
			return jobs, err
		}
		if j.Run < Unknown || j.Procs < Unknown || j.ReqProcs < Unknown || j.ReqTime < Unknown {
			t.Fatalf("job with a value below Unknown: %+v", j)
		}
		jobs = append(jobs, j)
	}
	m := rd.Meta()
	if err := ValidateLayout(m.Layout); err != nil {
		t.Fatalf("invalid layout %+v: %v", m.Layout, err)
	}
	for reason, n := range m.Skipped {
		if n <= 0 || reason == "" {
			t.Fatalf("skip count %q: %d", reason, n)
		}
	}
	return jobs, nil
}

func acctFuzzCheckErr(t *testing.T, err error) {
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.File != "fuzz.log" || pe.Line < 1 || pe.Err == nil {
		t.Fatalf("error without file or line: %+v", pe)
	}
}

// acctFuzz runs a reader on arbitrary input in both modes: strict and
// lenient reads must agree when the strict one succeeds, and reading is
// deterministic.
func acctFuzz(f *testing.F, name string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		strict, err := acctFuzzRead(t, name, data, false)
		lenient, lerr := acctFuzzRead(t, name, data, true)
		again, _ := acctFuzzRead(t, name, data, true)
		if len(again) != len(lenient) {
			t.Fatalf("two lenient reads: %d and %d jobs", len(lenient), len(again))
		}
		if err != nil || lerr != nil || len(strict) == acctFuzzMaxJobs {
			return
		}
		if len(strict) != len(lenient) {
			t.Fatalf("strict read %d jobs, lenient %d", len(strict), len(lenient))
		}
		for i := range strict {
			if strict[i] != lenient[i] {
				t.Fatalf("job %d: strict %+v, lenient %+v", i, strict[i], lenient[i])
			}
		}
	})
}

func FuzzGWF(f *testing.F) {
	acctFuzz(f, "gwf",
		"# MaxProcs: 4\n1 1107330058 2 58 2 57.5 -1 2 900 -1 1 U1 G1 -1 0 -1 fs0 fs0 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
		"1 1 1 1 1 1 1 1 1 1 9 a b c d e f g h i j k l m n o p q r\n")
}

func FuzzArgonne(f *testing.F) {
	acctFuzz(f, "argonne",
		"; MaxNodes: 4392\n639487\t1672529301\t71\t3632\t8\t3600\t-1\t-1\t-1\t-1\t-1\t0\t-1\t-1\t-1\t-1\t-1\t-1\n",
		"1\t100000000\t1.5\t2\t3\t4\t-1\t-1\t-1\t-1\t2\t7\t-1\t-1\t-1\t-1\t-1\t-1\n")
}

func FuzzSlurm(f *testing.F) {
	acctFuzz(f, "slurm",
		"JobID|JobName|Submit|Start|End|State|NCPUS|Timelimit\n1|a|b|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|4|1-00:00:00\n1.batch|batch|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:01:00|COMPLETED|4|\n",
		"4103947_[1-3]|4103947|c|p|q|a|g|1|u|2|2015-06-26T13:57:00|Unknown|2015-06-28T02:55:50|2015-07-01T02:55:50|3-00:00:00|1:0|CANCELLED by 2|32|256|256|3000Mc|||3-00:00:00|None assigned|x\n",
		"JobID|JobName|Submit|State\n1|x\ny|2021-01-01T00:00:00|PENDING\n")
}

func FuzzPBS(f *testing.F) {
	acctFuzz(f, "pbs",
		"12/21/2009 15:27:00;E;6.edge;user=u group=g queue=q ctime=1 qtime=2 start=3 end=9 exec_host=n/1+n/0*4 exec_vnode=(n:ncpus=2) Resource_List.nodes=2:ppn=2 Resource_List.walltime=01:00:00 Exit_status=0\n",
		"01/26/2016 00:00:37;S;2994.pbs;user=u\n01/26/2016 00:00:37;E;2995;ctime=5 Resource_List.select=2:ncpus=3 resources_used.walltime=10\n")
}

const acctFuzzSGELine = "q:h:g:o:j:9:a:0:1000000000:1000000100:1000000400:0:0:300:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:d:pe:4:1:0:0:0:-l h_rt=01:30:00 -pe pe 4:0:NONE:0:0:0\n"

func FuzzSGE(f *testing.F) {
	acctFuzz(f, "sge", "# Version: 6.2\n"+acctFuzzSGELine)
}

func FuzzUGE(f *testing.F) {
	acctFuzz(f, "uge", "q:h:g:o:j:9:a:0:1652111621288:1652111622875:1652124460193:0:0:12837.318:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:d:threads:16:0:0:0:0:-pe threads 16:0:NONE:0:0:0\n")
}

func FuzzLSF(f *testing.F) {
	acctFuzz(f, "lsf",
		`"JOB_FINISH" "9.11" 1389683139 404717 22025 33882739 2 1389642318 0 0 1389642771 "u" "q" "" "" "" "h" "/" "" "" "" "j" 1 "h1" 2 "2*h1" "h2" 64 60.0 "n" "c"`+"\n",
		`"JOB_NEW" "9.11" 1 2 3`+"\n")
}

func FuzzOAR(f *testing.F) {
	acctFuzz(f, "oar",
		`{"jobs": {"1": {"state": "Terminated", "submission_time": 1, "start_time": 2, "stop_time": 3, "resources": [1], "walltime": 9}}, "resources": [{"type": "default", "network_address": "n1"}]}`,
		`{"jobs": [{"Job_Id": "2", "state": "Error", "submissionTime": 1, "startTime": 2, "stopTime": 3, "exit_code": 1, "message": "R=2,W=1:00:00"}]}`)
}
