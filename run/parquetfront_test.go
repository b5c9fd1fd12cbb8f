package run

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/policy"
)

// front.parquet carries each solution's active fuzzy rules as text (the
// rules a reader of the Parquet file alone needs); front.csv does not.
func TestParquetFrontRules(t *testing.T) {
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	cfg := spec.Defaults()
	cfg.Fuzzy = policy.HGFSTemplate()
	off := cfg.Fuzzy.Clone()
	off.Rules[0].Then = fuzzy.NoRule // switched off: not in the text
	f := &Front{Policy: "hgfs", Solutions: []Solution{
		{Config: cfg}, {Config: policy.Config{Name: "hgfs", Fuzzy: off}}, {Config: policy.Config{Name: "idle-timeout"}},
	}}
	cols, rows, err := ParquetFront(f)
	if err != nil {
		t.Fatal(err)
	}
	flat, _, _ := FlatFront(f)
	if len(cols) != len(flat)+1 || cols[len(cols)-1].Name != RulesColumn {
		t.Fatalf("columns %v: want the flat front's and %q last", cols, RulesColumn)
	}
	active := 0
	for _, r := range cfg.Fuzzy.Rules {
		if r.Then != fuzzy.NoRule {
			active++
		}
	}
	text := func(i int) string { return rows[i][len(cols)-1].(string) }
	if got := strings.Count(text(0), "\n") + 1; got != active || !strings.HasPrefix(text(0), "IF ") {
		t.Errorf("row 0: %d rule lines, want %d; text %q", got, active, text(0))
	}
	if want := cfg.Fuzzy.RuleText(cfg.Fuzzy.Rules[0]); cfg.Fuzzy.Rules[0].Then != fuzzy.NoRule && (!strings.Contains(text(0), want) || strings.Contains(text(1), want)) {
		t.Errorf("rule 0 %q: in row 0 %v, in row 1 (switched off) %v", want, strings.Contains(text(0), want), strings.Contains(text(1), want))
	}
	if text(2) != "" {
		t.Errorf("a policy without rules has rules %q", text(2))
	}
	// Written and read back: the column is a string column with the text.
	var b bytes.Buffer
	if err := writeParquet(&b, cols, rows); err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	col, ok := pf.Schema().Lookup(RulesColumn)
	if !ok {
		t.Fatal("no rules column in the file")
	}
	rr := parquet.NewReader(bytes.NewReader(b.Bytes()))
	got := make([]parquet.Row, 3)
	if n, _ := rr.ReadRows(got); n != 3 {
		t.Fatalf("read %d rows", n)
	}
	if s := got[0][col.ColumnIndex].String(); s != text(0) {
		t.Errorf("read back %q, want %q", s, text(0))
	}
}
