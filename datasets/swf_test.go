package datasets

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/testtrace"
)

// tracePath returns the path of a file under ../shared/traces; a missing
// file fails the test under CI=true and skips it otherwise (testtrace).
func tracePath(t testing.TB, name string) string {
	t.Helper()
	return testtrace.Trace(t, name)
}

// Every SWF log of shared/traces imports; the jobs kept plus the jobs
// dropped equal the job lines that SOURCES.md counts, the drops are the
// columns SOURCES.md reports as -1, and the machine size is the header's.
func TestSWFTraces(t *testing.T) {
	tests := []struct {
		file               string
		lines              int
		nodes, procs       int
		skipped            map[string]int64
		procsFromRequested int64
	}{
		// NASA: every job valid; 173 zero-run-time jobs kept with run 0.
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 128, 128, nil, 0},
		// SDSC-SP2: 5,671 run -1 (the 5,669 procs -1 are among them).
		{"SDSC-SP2-1998-4.2-cln.swf.gz", 59715, 128, 128, map[string]int64{ruleRunUnknown: 5671}, 0},
		{"OSC-Clust-2000-3.1-cln.swf.gz", 36097, 57, 178, nil, 0},
		// LANL: 3 jobs with allocated and requested procs both -1.
		{"LANL-CM5-1994-4.1-cln.swf.gz", 122060, 1024, 1024, map[string]int64{ruleProcsUnknown: 3}, 0},
		{"SDSC-BLUE-2000-4.2-cln.swf.gz", 243306, 144, 1152, map[string]int64{ruleRunUnknown: 10744}, 8899},
		// "MaxNodes: 400 (48 interactive, ...)": the leading integer.
		{"SDSC-Par-1996-3.1-cln.swf.gz", 32135, 400, 400, nil, 0},
		// "MaxNodes: 184  ( 6,  171,   7)", "MaxProcs: 1664 (72, 1368, 224)".
		{"SDSC-DS-2004-2.1-cln.swf.gz", 96069, 184, 1664, map[string]int64{ruleRunUnknown: 11024}, 0},
		// Sandia: 15 jobs with allocated and requested procs -1.
		{"Sandia-Ross-2001-1.1-cln.swf.gz", 57882, 1524, 1524, map[string]int64{ruleProcsUnknown: 15}, 0},
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", 43778, 1152, 9216, map[string]int64{ruleProcsUnknown: 4571}, 17},
		{"CEA-Curie-2011-2.1-cln.swf.gz", 312826, 5544, 93312, map[string]int64{ruleProcsUnknown: 19}, 10893},
		// LCG: no MaxNodes.
		{"LCG-2005-1.swf.gz", 188041, Unknown, 24515, nil, 0},
		{"RICC-2010-2.swf.gz", 447794, 1024, 8192, nil, 0},
		// Lublin: MaxNodes only, so MaxProcs is taken equal to it.
		{"synthetic/lublin_256.swf", 10000, 256, 256, nil, 0},
		{"synthetic/lublin-aaroh.swf", 10000, 256, 256, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, err := Open(tracePath(t, tt.file), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := tr.Meta
			var dropped int64
			for _, n := range m.Skipped {
				dropped += n
			}
			if got := int64(len(tr.Jobs)) + dropped; got != int64(tt.lines) {
				t.Errorf("kept %d + dropped %d = %d, want %d job lines", len(tr.Jobs), dropped, got, tt.lines)
			}
			if want := orEmpty(tt.skipped); !maps.Equal(m.Skipped, want) {
				t.Errorf("Skipped = %v, want %v", m.Skipped, want)
			}
			if got := m.Adjusted[ruleProcsFromRequested]; got != tt.procsFromRequested {
				t.Errorf("Adjusted[%s] = %d, want %d", ruleProcsFromRequested, got, tt.procsFromRequested)
			}
			if m.Nodes != tt.nodes || m.Procs != tt.procs {
				t.Errorf("machine %d nodes, %d procs; want %d, %d", m.Nodes, m.Procs, tt.nodes, tt.procs)
			}
			checkTraceInvariants(t, tr)
		})
	}
}

func orEmpty(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}

// checkTraceInvariants checks what every canonical trace guarantees.
func checkTraceInvariants(t *testing.T, tr *Trace) {
	t.Helper()
	for i, j := range tr.Jobs {
		if i > 0 && compareJobs(tr.Jobs[i-1], j) > 0 {
			t.Fatalf("job %d (submit %d, id %d) before job %d (submit %d, id %d): not sorted",
				i-1, tr.Jobs[i-1].Submit, tr.Jobs[i-1].ID, i, j.Submit, j.ID)
		}
		if j.Submit < 0 || j.Run < 0 || j.Procs <= 0 || tr.Meta.Procs > 0 && int(j.Procs) > tr.Meta.Procs {
			t.Fatalf("job %d breaks the validation rules: %+v (machine %d procs)", i, j, tr.Meta.Procs)
		}
	}
}

// The embedded default is the NASA log: 18,239 jobs, 128 nodes, all kept,
// 173 of them with run time 0; submit times are absolute (UnixStartTime
// 749458803 + field 2, so the first job submits at 749458803).
func TestDefault(t *testing.T) {
	tr, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Meta.Name != DefaultName || len(tr.Jobs) != 18239 || tr.Meta.Nodes != 128 || tr.Meta.Procs != 128 {
		t.Fatalf("default %q: %d jobs, %d nodes, %d procs; want %q, 18239, 128, 128",
			tr.Meta.Name, len(tr.Jobs), tr.Meta.Nodes, tr.Meta.Procs, DefaultName)
	}
	zero := 0
	for _, j := range tr.Jobs {
		if j.Run == 0 {
			zero++
		}
	}
	if zero != 173 {
		t.Errorf("%d jobs with run 0, want 173", zero)
	}
	first := tr.Jobs[0]
	if first.Submit != 749458803 || first.ID != 1 || first.Run != 1451 || first.Procs != 128 || first.Wait != Unknown {
		t.Errorf("first job %+v", first)
	}
	// SOURCES.md gives the stored file's SHA-256.
	if src := tr.Meta.Sources; len(src) != 1 || src[0].SHA256 != "5589ae9b2fb78e3bf92de097497cf33a91607de1ad54563e43533f7827597f29" {
		t.Errorf("sources %+v", src)
	}
	// PDT (UTC−7) on 1 Oct 1993, from TimeZoneString US/Pacific.
	if tr.Meta.TimeZone != "US/Pacific" || tr.Meta.TZOffset != -7*3600 {
		t.Errorf("zone %q %d", tr.Meta.TimeZone, tr.Meta.TZOffset)
	}
	tr.Jobs[0].Run = 99
	again, _ := Default()
	if again.Jobs[0].Run != 1451 {
		t.Error("Default returned shared jobs: a change to one copy shows in the next")
	}
}

// swfLog builds an SWF log of n jobs, job i (1-based) submitted at 10·i.
func swfLog(header string, n int, override map[int]string) string {
	var b strings.Builder
	b.WriteString(header)
	for i := 1; i <= n; i++ {
		if line, ok := override[i]; ok {
			b.WriteString(line + "\n")
			continue
		}
		fmt.Fprintf(&b, "%d %d 5 100 4 90.5 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\n", i, 10*i)
	}
	return b.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A letter in field 4 (run_time) of line 1234 stops a strict read with an
// error naming the file, the line and the field; a lenient read skips the
// record and counts it.
func TestSWFParseError(t *testing.T) {
	// 4 header lines, so job 1230 is on line 1234.
	header := "; Version: 2.2\n; MaxNodes: 64\n; MaxProcs: 64\n; UnixStartTime: 1000\n"
	log := swfLog(header, 1300, map[int]string{1230: "1230 12300 5 1x0 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1"})
	path := writeTemp(t, "bad.swf", log)

	_, err := Open(path, ReadOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *ParseError", err)
	}
	msg := err.Error()
	for _, want := range []string{path, ":1234", "run_time", `"1x0"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if pe.Line != 1234 || pe.Field != "run_time" || !errors.Is(err, ErrSyntax) {
		t.Errorf("ParseError %+v", pe)
	}

	tr, err := Open(path, ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 1299 || !maps.Equal(tr.Meta.Skipped, map[string]int64{"unreadable_run_time": 1}) {
		t.Errorf("lenient: %d jobs, skipped %v; want 1299, unreadable_run_time:1", len(tr.Jobs), tr.Meta.Skipped)
	}
}

// Lenient mode counts records with a wrong number of fields under one key.
func TestSWFLenientFieldCount(t *testing.T) {
	log := swfLog("", 5, map[int]string{2: "2 20 5 100", 4: "4 40 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1 0"})
	tr, err := Open(writeTemp(t, "fc.swf", log), ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 3 || !maps.Equal(tr.Meta.Skipped, map[string]int64{"unreadable_field_count": 2}) {
		t.Errorf("%d jobs, skipped %v", len(tr.Jobs), tr.Meta.Skipped)
	}
}

func TestSWFRecordErrors(t *testing.T) {
	tests := []struct {
		name, line, field string
		sentinel          error
	}{
		{"short", "1 0 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1", "preceding_job", ErrFieldCount},
		{"long", "1 0 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1 9", "field_count", ErrFieldCount},
		{"letter in user", "1 0 5 100 4 -1 -1 4 200 -1 1 bob 3 -1 1 -1 -1 -1", "user_id", ErrSyntax},
		{"procs overflow", "1 0 5 100 4294967296 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1", "allocated_procs", ErrRange},
		{"lone sign", "1 - 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1", "submit_time", ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTemp(t, "x.swf", "; MaxProcs: 8\n"+tt.line+"\n")
			_, err := Open(path, ReadOptions{Format: "swf"})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != tt.field || !errors.Is(err, tt.sentinel) {
				t.Errorf("err = %v; want line 2, field %s, %v", err, tt.field, tt.sentinel)
			}
		})
	}
}

// Header keys in their spelling variants and the fields they govern.
func TestSWFHeader(t *testing.T) {
	header := strings.Join([]string{
		";Version: SWF v2",
		";MaxNodes: 338 (batch partition; 512 total)",
		"; maxprocs : 676",
		"; UnixStartTime: 1000000000",
		"; TimeZone: 3600",
		"; TimeZoneString: US/Pacific",
		"; Note: first part",
		";\tsecond part",
		"; MaxQueues: 2",
		"; Queue:  1  batch   (long jobs)",
		"; Queue:  2",
		"; Partition: 3  gpu",
		"",
	}, "\n")
	job := "7 60 -1 30 2 -1 -1 -1 -1 -1 1 12 -1 -1 %d %d -1 -1"
	log := header + fmt.Sprintf(job, 1, 3) + "\n" + fmt.Sprintf(strings.Replace(job, "7 60", "8 30", 1), 2, -1) + "\n"
	tr, err := Open(writeTemp(t, "h.swf", log), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := tr.Meta
	// 2001-09-09 01:46:40 UTC is in PDT: UTC−7, not the header's TimeZone 3600.
	if m.Nodes != 338 || m.Procs != 676 || m.ProcsPerNode != 2 || m.UnixStart != 1000000000 || m.TZOffset != -7*3600 {
		t.Errorf("meta %+v", m)
	}
	if len(m.Notes) == 0 || m.Notes[0] != "first part second part" {
		t.Errorf("notes %q", m.Notes)
	}
	want := []Job{
		{ID: 8, Submit: 1000000030, Wait: Unknown, Run: 30, Procs: 2, ReqProcs: Unknown, ReqTime: Unknown, Status: 1, User: "12", Queue: "2"},
		{ID: 7, Submit: 1000000060, Wait: Unknown, Run: 30, Procs: 2, ReqProcs: Unknown, ReqTime: Unknown, Status: 1, User: "12", Queue: "batch", Partition: "gpu"},
	}
	if fmt.Sprint(tr.Jobs) != fmt.Sprint(want) {
		t.Errorf("jobs\n%+v\nwant\n%+v", tr.Jobs, want)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		head string
		want string
	}{
		{"; Version: 2.2\n; MaxNodes: 4\n1 0 -1 5 1 -1 -1 -1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", "swf"},
		{"   1        0     -1   1451  128     -1    -1   -1     -1    -1 -1   1   1  -1 -1 -1 -1 -1\n", "swf"},
		{"; only a comment\n", "swf"},
	}
	for _, tt := range tests {
		f, err := Detect([]byte(tt.head))
		if err != nil || f.Name != tt.want {
			t.Errorf("Detect(%q) = %q, %v; want %q", tt.head, f.Name, err, tt.want)
		}
	}
	if detectSWF([]byte("1 2 3\n")) || detectSWF([]byte("JobID|User\n")) {
		t.Error("detectSWF accepted a record that is not 18 numbers")
	}
}

// A line of more than 1 MiB is an error naming its line, or skipped and
// counted in lenient mode.
func TestSWFLongLine(t *testing.T) {
	long := "3 30" + strings.Repeat(" 1", swfMaxLine)
	path := writeTemp(t, "long.swf", swfLog("", 4, map[int]string{3: long}))
	_, err := Open(path, ReadOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !errors.Is(err, ErrRange) {
		t.Fatalf("err = %v, want a ParseError at line 3", err)
	}
	tr, err := Open(path, ReadOptions{Lenient: true})
	if err != nil || len(tr.Jobs) != 3 || tr.Meta.Skipped["unreadable_line_length"] != 1 {
		t.Fatalf("lenient: %v, %d jobs, skipped %v", err, len(tr.Jobs), tr.Meta.Skipped)
	}
	if tr.Jobs[2].ID != 4 {
		t.Errorf("job after the long line: %+v", tr.Jobs[2])
	}
}

// swfReader.text interns the decimal texts of numbers, small ones in a
// slice, the others in a map: the same text either way, "" for unknown.
func TestSWFText(t *testing.T) {
	r := &swfReader{texts: map[int64]string{}}
	for _, n := range []int64{0, 7, 3, 65535, 1, 65536, 1 << 40, 4096, 7, 65536, -1, -7} {
		want := ""
		if n >= 0 {
			want = strconv.FormatInt(n, 10)
		}
		for range 2 { // computed, then interned
			if got := r.text(n); got != want {
				t.Errorf("text(%d) = %q, want %q", n, got, want)
			}
		}
	}
}
