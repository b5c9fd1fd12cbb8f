package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestExpandHostList(t *testing.T) {
	cases := []struct {
		list string
		want []string
	}{
		{"n1", []string{"n1"}},
		{"n[1-3]", []string{"n1", "n2", "n3"}},
		{"cn[08-10],gpu1", []string{"cn08", "cn09", "cn10", "gpu1"}},
		{"d13n[03,05,07-08]", []string{"d13n03", "d13n05", "d13n07", "d13n08"}},
		{"r[1-2]n[1-2]", []string{"r1n1", "r1n2", "r2n1", "r2n2"}},
		{"cpn-f13-03-[01-02],x", []string{"cpn-f13-03-01", "cpn-f13-03-02", "x"}},
		{"a[9-10]b", []string{"a9b", "a10b"}},
	}
	for _, c := range cases {
		got, err := ExpandHostList(c.list)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ExpandHostList(%q) = %q, %v; want %q", c.list, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "n[1-", "n[3-1]", "n]1[", "n[1-2000000]", "a,", ",a", "n[[1]]", "n[x]", "n[1,]"} {
		if got, err := ExpandHostList(bad); !errors.Is(err, errHostList) {
			t.Errorf("ExpandHostList(%q) = %q, %v; want a host list error", bad, got, err)
		}
	}
}

// TestHostList checks hand-worked compressions and that expanding the
// compressed list gives the sorted distinct names back.
func TestHostList(t *testing.T) {
	cases := []struct {
		names []string
		want  string
	}{
		{[]string{"n4", "n2", "n3", "n1"}, "n[1-4]"},
		{[]string{"cn01", "cn02", "cn04", "gpu1"}, "cn[01-02,04],gpu1"},
		{[]string{"n9", "n10", "n11"}, "n[9-11]"},
		{[]string{"n09", "n10"}, "n[09-10]"},
		{[]string{"n1", "n1", "n2"}, "n[1-2]"},
		{[]string{"login", "b", "a7"}, "a7,b,login"},
		{[]string{"x-1-01", "x-1-02", "x-2-01"}, "x-1-[01-02],x-2-01"},
		{[]string{"n007", "n8"}, "n8,n007"},
	}
	for _, c := range cases {
		got := HostList(c.names)
		if got != c.want {
			t.Errorf("HostList(%q) = %q, want %q", c.names, got, c.want)
		}
		back, err := ExpandHostList(got)
		if err != nil {
			t.Fatalf("ExpandHostList(%q): %v", got, err)
		}
		slices.Sort(back)
		want := slices.Compact(slices.Sorted(slices.Values(c.names)))
		if !slices.Equal(back, want) {
			t.Errorf("ExpandHostList(HostList(%q)) = %q", c.names, back)
		}
	}
}

// sacctLog writes a sacct --parsable2 log with a header from rows of
// id, nnodes, ncpus, nodelist, start, end (times as minutes after
// 2024-01-01T00:00:00).
func sacctLog(rows ...[6]string) string {
	var b strings.Builder
	b.WriteString("JobID|JobIDRaw|Partition|User|Group|Submit|Start|End|Elapsed|State|NNodes|NCPUS|NodeList\n")
	at := func(m string) string {
		var n int
		fmt.Sscan(m, &n)
		return fmt.Sprintf("2024-01-01T%02d:%02d:00", n/60, n%60)
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%s|%s|batch|alice|lab|%s|%s|%s||COMPLETED|%s|%s|%s\n",
			r[0], r[0], at(r[4]), at(r[4]), at(r[5]), r[1], r[2], r[3])
	}
	return b.String()
}

// TestSlurmLayout4x32 imports a sacct log of a cluster of 4 nodes of 32
// cores: whole-node jobs, a 4-node job and two 16-core jobs sharing a
// node. It must give 4 nodes of 32 slots, through the reader, ReadLogs
// and a Parquet import alike.
func TestSlurmLayout4x32(t *testing.T) {
	log := sacctLog(
		[6]string{"1", "4", "128", "n[1-4]", "0", "60"},
		[6]string{"2", "1", "32", "n1", "60", "90"},
		[6]string{"3", "1", "16", "n2", "60", "120"},
		[6]string{"4", "1", "16", "n2", "70", "100"}, // with 3: 32 on n2
		[6]string{"5", "2", "40", "n[3-4]", "60", "80"},
		[6]string{"6", "1", "8", "n4", "90", "95"},
	)
	want := []LayoutGroup{{Slots: 32, Count: 4, Hosts: "n[1-4]"}}
	jobs, meta, err := acctReadString(t, "slurm", log, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 6 {
		t.Fatalf("%d jobs, want 6", len(jobs))
	}
	checkLayout(t, "reader", meta, want)

	dir := t.TempDir()
	path := filepath.Join(dir, "sacct.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadLogs([]string{path}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "ReadLogs", tr.Meta, want)
	out := filepath.Join(dir, "t.parquet")
	if _, err := Import([]string{path}, out, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadParquetFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "Parquet", back.Meta, want)
	if len(back.Jobs) != 6 {
		t.Errorf("Parquet: %d jobs, want 6", len(back.Jobs))
	}
}

func checkLayout(t *testing.T, what string, m Meta, want []LayoutGroup) {
	t.Helper()
	if !reflect.DeepEqual(m.Layout, want) {
		t.Errorf("%s: layout %+v, want %+v", what, m.Layout, want)
	}
	if n, p := LayoutNodes(want), LayoutSlots(want); m.Nodes != n || m.Procs != p || m.ProcsPerNode != p/n {
		t.Errorf("%s: machine %d nodes, %d procs, %d per node; want %d, %d, %d", what, m.Nodes, m.Procs, m.ProcsPerNode, n, p, p/n)
	}
}

// TestLayoutOverlaps checks the slots observed on one node against a
// reference: the most processors in use at any second, found by brute
// force over every second.
func TestLayoutOverlaps(t *testing.T) {
	spans := [][3]int64{ // procs, start, end
		{4, 0, 10}, {2, 5, 15}, {3, 9, 12}, {1, 10, 20}, {8, 20, 21}, {2, 14, 30}, {5, 15, 16}, {1, 0, 0},
	}
	for rot := range spans { // input order must not matter while all are kept
		var o layoutObserver
		for k := range spans {
			s := spans[(k+rot)%len(spans)]
			o.observe([]byte("h"), int64(k+rot), s[0], s[1], s[2])
		}
		var want int64
		for sec := int64(0); sec < 40; sec++ {
			var load int64
			for _, s := range spans {
				if s[1] <= sec && sec < s[2] {
					load += s[0]
				}
			}
			want = max(want, load)
		}
		if got := o.hosts["h"].slots; got != want {
			t.Errorf("rotation %d: %d slots, want %d", rot, got, want)
		}
	}
}

// TestPBSLayout reads exec_host in its three forms; job 1 is listed twice
// (as PBS logs do) and counts once.
func TestPBSLayout(t *testing.T) {
	rec := func(id, start, end int, exec string) string {
		return fmt.Sprintf("01/01/2024 00:00:00;E;%d.srv;user=u group=g queue=q ctime=1704067200 qtime=1704067200 start=%d end=%d exec_host=%s Exit_status=0\n",
			id, 1704067200+start, 1704067200+end, exec)
	}
	log := rec(1, 0, 100, "a/7+a/6+b/0+b/1") + // a: 2 cores, index 7 → at least 8
		rec(1, 0, 100, "a/7+a/6+b/0+b/1") + // the same run again
		rec(2, 50, 150, "b/2-3") + // b: 2 + 2 at once
		rec(3, 0, 100, "c/0*4") + rec(4, 50, 60, "c/0*4") + // c: 8 at once
		rec(5, 200, 300, "d/0-15") // d: 16
	_, meta, err := acctReadString(t, "pbs", log, false)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "pbs", meta, []LayoutGroup{
		{Slots: 4, Count: 1, Hosts: "b"},
		{Slots: 8, Count: 2, Hosts: "a,c"},
		{Slots: 16, Count: 1, Hosts: "d"},
	})
}

// TestSGELayout reads the hostname field: two overlapping jobs on h01 (4
// and 2 slots), a later one of 3, and one of 8 on h02.
func TestSGELayout(t *testing.T) {
	rec := func(host string, job, start, end, slots int) string {
		return fmt.Sprintf("q:%s:g:o:j:%d:a:0:1000000000:%d:%d:0:0:300:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:d:pe:%d:0:0:0:0:-l h_rt=01:30:00:0:NONE:0:0:0\n",
			host, job, 1000000000+start, 1000000000+end, slots)
	}
	log := rec("h01", 1, 0, 100, 4) + rec("h01", 2, 50, 150, 2) + rec("h01", 3, 200, 300, 3) + rec("h02", 4, 0, 10, 8)
	_, meta, err := acctReadString(t, "sge", log, false)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "sge", meta, []LayoutGroup{{Slots: 6, Count: 1, Hosts: "h01"}, {Slots: 8, Count: 1, Hosts: "h02"}})
}

// TestSampleLayouts reads the real samples. The layouts were checked by
// hand against the logs (comments); every one satisfies the invariants:
// groups sorted by slots, their hosts distinct and as many as Count, and
// the machine size their totals.
func TestSampleLayouts(t *testing.T) {
	cases := []struct {
		format, file string
		lenient      bool
		want         []LayoutGroup // nil: only the invariants (and nodes, procs)
		nodes, procs int
	}{
		// 256 CPUs on 32 nodes (8 each), 36 on 3 and 48 on 4 (12 each);
		// job 5692623 has 0 CPUs and is dropped.
		{"slurm", "slurm/xdmod_accounting-logs.log", false, []LayoutGroup{
			{Slots: 8, Count: 32, Hosts: "d07n07s02,d07n19s02,d07n25s01,d07n28s01,d07n29s01,d07n31s02,d07n38s02,d09n04s[01-02],d09n05s02,d09n06s01,d09n07s01,d09n08s[01-02],d09n09s01,d09n11s[01-02],d09n13s01,d09n14s01,d09n15s01,d09n16s01,d09n17s01,d09n24s01,d09n25s02,d09n28s01,d09n35s01,d09n38s02,d13n[03,05,07-08,16]"},
			{Slots: 12, Count: 7, Hosts: "k07n07s01,k08n02s01,k08n05s01,k08n13s01,k10n26s01,k13n36s01,k13n37s01"},
		}, 39, 340},
		// b001 and n001 32 CPUs each; jobs 3 and 4 (18 CPUs on b[002-003],
		// 9 per node) overlap in time: 18.
		{"slurm", "slurm/slurm_sim_tools_sacct_simple.log", false, []LayoutGroup{
			{Slots: 18, Count: 2, Hosts: "b[002-003]"},
			{Slots: 32, Count: 2, Hosts: "b001,n001"},
		}, 4, 100},
		// Array records with one NodeList, all at the same time: one run.
		{"slurm", "slurm/xdmod_accounting-logs-with-job-arrays.log", false, nil, 32, 256},
		// Five 40-CPU jobs on cpn-q06-12-01 at the same times (the sample's
		// copies): 200 as observed; 25 on cpn-u22-13.
		{"slurm", "slurm/slurm_sim_tools_sacct_dump2101.log", true, []LayoutGroup{
			{Slots: 25, Count: 1, Hosts: "cpn-u22-13"},
			{Slots: 200, Count: 1, Hosts: "cpn-q06-12-01"},
		}, 2, 225},
		{"slurm", "slurm/xdmod_referencedata_phillips.log", false, nil, 46, 351},
		// Job 6 (i02n[30-33], cores 0-7, listed twice); n404 cores 2-5 (at
		// least 6); c1..c5 PBS Pro chunks of 13 with overlaps; node0703.
		{"pbs", "pbs/xdmod_accounting-logs.log", false, []LayoutGroup{
			{Slots: 6, Count: 1, Hosts: "n404"},
			{Slots: 8, Count: 4, Hosts: "i02n[30-33]"},
			{Slots: 13, Count: 3, Hosts: "c[3-5]"},
			{Slots: 17, Count: 1, Hosts: "c1"},
			{Slots: 21, Count: 1, Hosts: "c2"},
			{Slots: 56, Count: 1, Hosts: "node0703"},
		}, 11, 171},
		// The same one-slot job twice.
		{"sge", "sge/xdmod_accounting-logs.log", false, []LayoutGroup{{Slots: 1, Count: 1, Hosts: "testhost"}}, 1, 1},
		{"uge", "uge/xdmod_accounting-logs.log", false, []LayoutGroup{
			{Slots: 1, Count: 1, Hosts: "testhost"},
			{Slots: 16, Count: 1, Hosts: "gpuhost"},
		}, 2, 17},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			_, meta, err := acctReadFile(t, c.format, "samples/"+c.file, c.lenient)
			if err != nil {
				t.Fatal(err)
			}
			if c.want != nil && !reflect.DeepEqual(meta.Layout, c.want) {
				t.Errorf("layout %+v, want %+v", meta.Layout, c.want)
			}
			if meta.Nodes != c.nodes || meta.Procs != c.procs {
				t.Errorf("%d nodes, %d procs; want %d, %d", meta.Nodes, meta.Procs, c.nodes, c.procs)
			}
			checkLayoutInvariants(t, meta)
			t.Logf("%s: %d nodes, %d slots: %+v", c.file, meta.Nodes, meta.Procs, meta.Layout)
		})
	}
}

func checkLayoutInvariants(t *testing.T, m Meta) {
	t.Helper()
	seen := map[string]bool{}
	for i, g := range m.Layout {
		if i > 0 && g.Slots <= m.Layout[i-1].Slots {
			t.Errorf("layout[%d]: %d slots after %d", i, g.Slots, m.Layout[i-1].Slots)
		}
		names, err := ExpandHostList(g.Hosts)
		if err != nil || len(names) != g.Count {
			t.Errorf("layout[%d]: %q gives %d names (%v), count %d", i, g.Hosts, len(names), err, g.Count)
		}
		for _, n := range names {
			if seen[n] {
				t.Errorf("host %s in two groups", n)
			}
			seen[n] = true
		}
	}
	if m.Nodes != LayoutNodes(m.Layout) || m.Procs != LayoutSlots(m.Layout) {
		t.Errorf("machine %d nodes, %d procs; the layout has %d, %d", m.Nodes, m.Procs, LayoutNodes(m.Layout), LayoutSlots(m.Layout))
	}
}

// TestLayoutMerge reads two logs of one cluster: every host, with the
// most slots either shows; with a log that names no hosts, no layout.
func TestLayoutMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.log", sacctLog([6]string{"1", "2", "32", "n[1-2]", "0", "10"}))
	b := write("b.log", sacctLog([6]string{"2", "2", "64", "n[2-3]", "0", "10"}))
	swf := write("c.swf", "; MaxNodes: 4\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	tr, err := ReadLogs([]string{a, b}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "merged", tr.Meta, []LayoutGroup{{Slots: 16, Count: 1, Hosts: "n1"}, {Slots: 32, Count: 2, Hosts: "n[2-3]"}})
	tr, err = ReadLogs([]string{a, swf}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Meta.Layout != nil {
		t.Errorf("slurm + swf: layout %+v, want none", tr.Meta.Layout)
	}
}

// TestParquetWithoutLayout checks that a trace without a layout (SWF, or
// any file written before layouts) writes the metadata it wrote before
// (no Layout key) and reads back without one.
func TestParquetWithoutLayout(t *testing.T) {
	tr, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteParquet(&buf, tr); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`"Layout"`)) {
		t.Error("a trace without layout writes a Layout key")
	}
	back, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Meta.Layout != nil || back.Meta.Nodes != tr.Meta.Nodes || back.Meta.Procs != tr.Meta.Procs {
		t.Errorf("read back: layout %v, %d nodes, %d procs", back.Meta.Layout, back.Meta.Nodes, back.Meta.Procs)
	}
}

// FuzzHostList checks that reading any host list never panics, and that
// a list that reads compresses to one that reads back to the same names.
func FuzzHostList(f *testing.F) {
	for _, s := range []string{"n[1-4]", "cn[01-02,07],gpu1", "r[1-2]n[3-4]", "a[9-10]b", "x", "n[1-", "n[]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		names, err := ExpandHostList(list)
		if err != nil || len(names) > 1000 {
			return
		}
		back, err := ExpandHostList(HostList(names))
		if err != nil {
			t.Fatalf("HostList(%q) = %q: %v", names, HostList(names), err)
		}
		slices.Sort(back)
		want := slices.Compact(slices.Sorted(slices.Values(names)))
		if !slices.Equal(back, want) {
			t.Fatalf("%q: names %q, back %q", list, want, back)
		}
	})
}

func TestValidateLayout(t *testing.T) {
	for _, c := range []struct {
		layout []LayoutGroup
		want   string // "" valid
	}{
		{nil, ""},
		{[]LayoutGroup{{Slots: 32, Count: 4, Hosts: "n[1-4]"}}, ""},
		{[]LayoutGroup{{Slots: 0, Count: 4, Hosts: "n[1-4]"}}, "layout[0].slots"},
		{[]LayoutGroup{{Slots: 2, Count: 0, Hosts: ""}}, "layout[0].count"},
		{[]LayoutGroup{{Slots: 2, Count: 3, Hosts: "n[1-4]"}}, "layout[0].hosts: 4 hosts for count 3"},
		{[]LayoutGroup{{Slots: 2, Count: 1, Hosts: "n["}}, "layout[0].hosts"},
		{[]LayoutGroup{{Slots: 2, Count: 2, Hosts: "n[1-2]"}, {Slots: 4, Count: 1, Hosts: "n2"}}, "a host is in two groups"},
	} {
		err := ValidateLayout(c.layout)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: error %v, want %q", c.layout, err, c.want)
		}
	}
	// A trace file whose metadata has a bad layout is an error naming it.
	tr := &Trace{Meta: Meta{Name: "x", Layout: []LayoutGroup{{Slots: 0, Count: 1, Hosts: "a"}}}, Jobs: []Job{{ID: 1, Run: 1, Procs: 1}}}
	var buf bytes.Buffer
	if err := WriteParquet(&buf, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err == nil || !strings.Contains(err.Error(), "layout[0].slots") {
		t.Errorf("bad layout read: %v", err)
	}
}

// TestPreLayoutTrace reads a trace written before layouts existed
// (testdata/pre-layout-slurm.parquet: slurm_sim_tools_sacct_simple.log
// imported by commit 4156cee): no layout, the machine as it was then (32
// processors, the largest job; nodes unknown). The same log read now has
// its layout.
func TestPreLayoutTrace(t *testing.T) {
	tr, err := ReadParquetFile(filepath.Join("testdata", "pre-layout-slurm.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Meta.Layout != nil || tr.Meta.Nodes != Unknown || tr.Meta.Procs != 32 || len(tr.Jobs) != 4 {
		t.Errorf("old trace: layout %v, %d nodes, %d procs, %d jobs", tr.Meta.Layout, tr.Meta.Nodes, tr.Meta.Procs, len(tr.Jobs))
	}
	_, meta, err := acctReadFile(t, "slurm", "samples/slurm/slurm_sim_tools_sacct_simple.log", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Layout) == 0 {
		t.Error("the log read now has no layout")
	}
}
