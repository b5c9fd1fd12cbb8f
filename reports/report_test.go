package reports

import (
	"errors"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/tuner"
)

// tableCells parses the HTML table with the given id into rows of cell
// texts.
func tableCells(t *testing.T, page, id string) [][]string {
	t.Helper()
	start := strings.Index(page, `<table id="`+id+`">`)
	if start < 0 {
		t.Fatalf("no table %q in the page", id)
	}
	end := strings.Index(page[start:], "</table>")
	body := page[start : start+end]
	var rows [][]string
	for _, tr := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(body, -1) {
		var row []string
		for _, td := range regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`).FindAllStringSubmatch(tr[1], -1) {
			row = append(row, html.UnescapeString(td[1]))
		}
		rows = append(rows, row)
	}
	return rows
}

func column(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	return -1
}

func TestWriteHTMLHoldsTheRunsNumbers(t *testing.T) {
	dir := writeTestRun(t)
	path, err := Write(dir, Options{NoTimeline: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	rows := tableCells(t, page, "holdout")
	header := rows[0]
	// Each preset's row shows its solution's scores. qos0.1 is row 3:
	// train qos 0.08, test qos 0.12 and 200000 off node-seconds (shown as
	// 55.5556 node-hours), 56 kWh on test; always-on uses 70 kWh on test,
	// so it saves 14 kWh (20 %), 12 kWh above the oracle's 44.
	want := map[string]map[string]string{
		"qos0":   {"train feasible": "INFEASIBLE", "row": "4", "train p90 wait ratio": "0.02", "test reconfigurations": "20", "energy (kWh)": "61", "saved (kWh)": "9"},
		"qos0.1": {"train feasible": "yes", "row": "3", "train p90 wait ratio": "0.08", "test p90 wait ratio": "0.12", "test nodes off (node-hours)": "55.5556", "energy (kWh)": "56", "saved (kWh)": "14", "saved (%)": "20.0", "above oracle (kWh)": "12"},
		"qos0.5": {"train feasible": "yes", "row": "1", "train nodes off (node-hours)": "222.2", "test reconfigurations": "210", "saved (kWh)": "20"},
	}
	if len(rows) != 1+len(want) {
		t.Fatalf("holdout has %d rows, want %d", len(rows)-1, len(want))
	}
	for _, row := range rows[1:] {
		for col, v := range want[row[0]] {
			// A score's train and test share a cell: "train / test".
			split, score, isScore := strings.Cut(col, " ")
			if isScore && (split == "train" || split == "test") {
				col = score + ", train / test"
			}
			i := column(header, col)
			if i < 0 {
				t.Fatalf("no column %s in %v", col, header)
			}
			cell := row[i]
			if isScore && (split == "train" || split == "test") {
				train, test, _ := strings.Cut(cell, " / ")
				cell = map[string]string{"train": train, "test": test}[split]
			}
			if cell != v {
				t.Errorf("%s %s = %q, want %q", row[0], col, cell, v)
			}
		}
	}
	// Every figure is embedded; nothing is fetched from elsewhere.
	if n := strings.Count(html.UnescapeString(page), `src="data:image/svg+xml;base64,`); n != 3 {
		t.Errorf("%d embedded figures, want 3 fronts", n)
	}
	for _, ext := range []string{`src="http`, `href="http`, `<link`, `<script src`} {
		if strings.Contains(page, ext) {
			t.Errorf("page refers to an external asset (%s)", ext)
		}
	}
	for _, f := range []string{ReportMD, ReportCSV, "front-qos_p90-off_node_seconds.svg", "front-qos_p90-off_node_seconds.png", "front-qos_p90-off_node_seconds.pdf"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), f)); err != nil {
			t.Error(err)
		}
	}
	// A second report does not overwrite the first without Force.
	if _, err := Write(dir, Options{NoTimeline: true}); !errors.Is(err, ErrExists) {
		t.Errorf("second Write: %v, want ErrExists", err)
	}
	if _, err := Write(dir, Options{NoTimeline: true, Force: true}); err != nil {
		t.Errorf("second Write with Force: %v", err)
	}
}

func TestCSVHoldsEveryDigit(t *testing.T) {
	rep, err := Build(testRun(), Options{NoTimeline: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := rep.CSV()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d CSV lines, want header and 3 presets", len(lines))
	}
	wantLine := "qos0.1,0.1,false,0.1,true,,3,0.08,500000,150,0,0,0.12,200000,60,0,0,test,56,14,20,12,4,true,0.03,90000,20,0,0"
	if lines[2] != wantLine {
		t.Errorf("qos0.1 line\n got %s\nwant %s", lines[2], wantLine)
	}
}

func TestPick(t *testing.T) {
	r := testRun()
	tests := []struct {
		name      string
		wantRow   int
		wantLabel string
		wantErr   bool
	}{
		{"", 3, "qos0.1", false}, // first feasible preset
		{"qos0.5", 1, "qos0.5", false},
		{"qos0", 4, "qos0", false},
		{"2", 2, "row 2", false},
		{"6", 0, "", true},
		{"-1", 0, "", true},
		{"knee", 0, "", true},
	}
	for _, tt := range tests {
		p, err := r.Pick(tt.name)
		if (err != nil) != tt.wantErr {
			t.Errorf("Pick(%q): error %v", tt.name, err)
			continue
		}
		if err == nil && (p.Row != tt.wantRow || p.Label != tt.wantLabel) {
			t.Errorf("Pick(%q) = row %d %q, want row %d %q", tt.name, p.Row, p.Label, tt.wantRow, tt.wantLabel)
		}
	}
}

func TestLoadRunRejectsBadRuns(t *testing.T) {
	if _, err := LoadRun(t.TempDir()); err == nil {
		t.Error("empty directory: no error")
	}
	r := testRun()
	r.Meta.Presets[0].Row = 99
	if err := r.check(); err == nil || !strings.Contains(err.Error(), "qos0") {
		t.Errorf("preset outside the front: %v", err)
	}
}

func TestTestSplit(t *testing.T) {
	tr := &datasets.Trace{Jobs: make([]datasets.Job, 10)}
	for i := range tr.Jobs {
		tr.Jobs[i].ID = int64(i + 1)
		tr.Jobs[i].Submit = int64(100 * i)
	}
	tests := []struct {
		split   string
		firstID int64
		n       int
		err     bool
	}{
		{"chronological jobs 0.7", 8, 3, false},  // round(0.7·10) = 7 train, as the tuner splits
		{"chronological jobs 0.75", 9, 2, false}, // round(7.5) = 8
		{"chronological jobs 0.74", 8, 3, false}, // round(7.4) = 7
		{"chronological jobs 1", 1, 10, false},   // no holdout: the whole trace
		{"", 1, 10, false},
		{"chronological jobs 0", 0, 0, true},
		{"chronological jobs 0.01", 0, 0, true}, // round(0.1) = 0: empty train part
		{"chronological jobs x", 0, 0, true},
		{"random 0.7", 0, 0, true},
	}
	for _, tt := range tests {
		got, err := testSplit(tr, tt.split)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v", tt.split, err)
			continue
		}
		if err == nil && (len(got.Jobs) != tt.n || got.Jobs[0].ID != tt.firstID) {
			t.Errorf("%q: %d jobs from ID %d, want %d from %d", tt.split, len(got.Jobs), got.Jobs[0].ID, tt.n, tt.firstID)
		}
	}
}

// Without an oracle reference the distance to the oracle is left blank,
// not shown as 0.
func TestHoldoutWithoutOracle(t *testing.T) {
	r := testRun()
	delete(r.Meta.References, Oracle)
	rows := Holdout(r)
	if rows[1].AboveOracleKWh != nil || rows[1].SavedKWh == nil || *rows[1].SavedKWh != 14 {
		t.Errorf("qos0.1 row: above oracle %v, saved %v", rows[1].AboveOracleKWh, rows[1].SavedKWh)
	}
	rep, err := Build(r, Options{NoTimeline: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := rep.CSV()
	if err != nil {
		t.Fatal(err)
	}
	if want := "qos0.1,0.1,false,0.1,true,,3,0.08,500000,150,0,0,0.12,200000,60,0,0,test,56,14,20,,4,true,0.03,90000,20,0,0\n"; !strings.Contains(string(b), want) {
		t.Errorf("csv lacks %q:\n%s", want, b)
	}
}

func TestWindow(t *testing.T) {
	const day = 86400
	tests := []struct {
		from, to, tIni, tEnd int64
		wantFrom, wantTo     int64
	}{
		{0, 0, 1000, 1000 + 5*day, 1000, 1000 + DefaultWindow},
		{1000 + day, 0, 1000, 1000 + 5*day, 1000 + day, 1000 + day + DefaultWindow},
		{0, 5000, 1000, 1000 + 5*day, 1000, 5000},
		{500, 1000 + 9*day, 1000, 1000 + 5*day, 1000, 1000 + 5*day}, // clipped to the split
		{0, 0, 1000, 2000, 1000, 2000},
	}
	for _, tt := range tests {
		f, to := window(tt.from, tt.to, tt.tIni, tt.tEnd)
		if f != tt.wantFrom || to != tt.wantTo {
			t.Errorf("window(%d, %d, %d, %d) = [%d, %d), want [%d, %d)", tt.from, tt.to, tt.tIni, tt.tEnd, f, to, tt.wantFrom, tt.wantTo)
		}
	}
}

func TestMarkdownAndCSVGolden(t *testing.T) {
	rep, err := Build(testRun(), Options{NoTimeline: true})
	if err != nil {
		t.Fatal(err)
	}
	md, err := rep.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "report.golden.md", md)
	csv, err := rep.CSV()
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "report.golden.csv", csv)
}

// A learned solution's active rules are printed as text.
func TestRulesTable(t *testing.T) {
	r := testRun()
	fz := &fuzzy.System{
		Inputs: []fuzzy.Variable{{Name: "queue", Labels: []string{"short", "long"}}},
		Output: fuzzy.Variable{Name: "spare", Labels: []string{"few", "many"}},
		Rules:  []fuzzy.Rule{{If: []int{0}, Then: 0}, {If: []int{1}, Then: fuzzy.NoRule}, {If: []int{1}, Then: 1}},
	}
	r.Front.Solutions[3].Config.Fuzzy = fz
	rep, err := Build(r, Options{NoTimeline: true})
	if err != nil {
		t.Fatal(err)
	}
	tab := rep.rulesTable()
	want := [][]string{{"0", "IF queue IS short THEN spare IS few"}, {"2", "IF queue IS long THEN spare IS many"}}
	if !reflect.DeepEqual(tab.Rows, want) || !strings.Contains(tab.Caption, "2 active of 3") {
		t.Errorf("rules table %q: %q", tab.Caption, tab.Rows)
	}
	md, err := rep.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| 2 | IF queue IS long THEN spare IS many |") {
		t.Errorf("markdown lacks the rules:\n%s", md)
	}
}

// TestWriteRefusesReportLink: a link planted at RUN/report is not
// followed; the directory it points to stays empty.
func TestWriteRefusesReportLink(t *testing.T) {
	dir := writeTestRun(t)
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(dir, "report")); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, Options{NoTimeline: true}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("report through a link: error %v", err)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("%d files written through the link", len(entries))
	}
}

// TestLoadRunTraceChecksEmbedded: a run on the embedded trace whose
// run.json records another digest is not trusted.
func TestLoadRunTraceChecksEmbedded(t *testing.T) {
	m := &tuner.RunMeta{Trace: datasets.DefaultName}
	tr, err := LoadRunTrace(m)
	if err != nil {
		t.Fatal(err)
	}
	m.TraceSHA256 = tuner.TraceDigest(tr)
	if _, err := LoadRunTrace(m); err != nil {
		t.Errorf("the right digest: %v", err)
	}
	m.TraceSHA256 = strings.Repeat("0", 64)
	if _, err := LoadRunTrace(m); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a tampered digest: error %v", err)
	}
}
