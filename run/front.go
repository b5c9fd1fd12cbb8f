package run

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
	"github.com/parquet-go/parquet-go"
)

// ScoreNames are the scores the flat front files carry, per split: every
// objective of the table, in its order.
var ScoreNames = objectives.Names()

// Column is one column of the flat front.
type Column struct {
	Name string
	Kind byte // 'i' integer, 'f' float, 's' string
}

// FlatFront is the front as a table: row, rank, presets (";"-joined),
// param.NAME for each parameter, then train.SCORE and test.SCORE for each
// of ScoreNames (test columns only when there is a test split). The fuzzy
// rule bases are in front.json and, as text, in front.parquet (see
// ParquetFront); front.csv keeps this table alone.
func FlatFront(f *Front) ([]Column, [][]any, error) {
	cols := []Column{{"row", 'i'}, {"rank", 'i'}, {"presets", 's'}}
	for _, p := range f.ParamNames {
		cols = append(cols, Column{"param." + p, 'f'})
	}
	hasTest := len(f.Solutions) > 0 && f.Solutions[0].Test != nil
	splits := []string{"train"}
	if hasTest {
		splits = append(splits, "test")
	}
	for _, sp := range splits {
		for _, s := range ScoreNames {
			cols = append(cols, Column{sp + "." + s, 'f'})
		}
	}
	rows := make([][]any, len(f.Solutions))
	for i, s := range f.Solutions {
		row := []any{int64(i), int64(s.Rank), strings.Join(s.Presets, ";")}
		for _, p := range f.ParamNames {
			row = append(row, s.Config.Params[p])
		}
		for _, sp := range splits {
			sc := s.On(sp)
			if sc == nil {
				return nil, nil, fmt.Errorf("run: solution %d has no %s scores", i, sp)
			}
			for _, name := range ScoreNames {
				v, err := sc.Get(name)
				if err != nil {
					return nil, nil, err
				}
				row = append(row, v)
			}
		}
		rows[i] = row
	}
	return cols, rows, nil
}

// RulesColumn is the front.parquet column of each solution's learned
// fuzzy rules as text: the active rules (a rule switched off is left out),
// one a line, as fuzzy.System.RuleText writes them ("IF queue IS long AND
// ... THEN action IS boot_many"); empty for a policy without rules.
const RulesColumn = "rules"

// ParquetFront is FlatFront with the RulesColumn: the table front.parquet
// holds, so a reader of the Parquet file alone (DuckDB, pandas) sees what
// each solution learned.
func ParquetFront(f *Front) ([]Column, [][]any, error) {
	cols, rows, err := FlatFront(f)
	if err != nil {
		return nil, nil, err
	}
	cols = append(cols, Column{RulesColumn, 's'})
	for i, s := range f.Solutions {
		rows[i] = append(rows[i], rulesText(s.Config.Fuzzy))
	}
	return cols, rows, nil
}

// rulesText is the active rules of fz, one a line ("" for nil).
func rulesText(fz *fuzzy.System) string {
	if fz == nil {
		return ""
	}
	var lines []string
	for _, r := range fz.Rules {
		if r.Then == fuzzy.NoRule {
			continue
		}
		lines = append(lines, fz.RuleText(r))
	}
	return strings.Join(lines, "\n")
}

func writeCSV(file io.Writer, cols []Column, rows [][]any) error {
	w := csv.NewWriter(file)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.Name
	}
	if err := w.Write(head); err != nil {
		return err
	}
	rec := make([]string, len(cols))
	for _, row := range rows {
		for i, v := range row {
			switch v := v.(type) {
			case int64:
				rec[i] = strconv.FormatInt(v, 10)
			case float64:
				rec[i] = strconv.FormatFloat(v, 'g', -1, 64)
			case string:
				rec[i] = v
			}
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func writeParquet(file io.Writer, cols []Column, rows [][]any) error {
	group := parquet.Group{}
	for _, c := range cols {
		switch c.Kind {
		case 'i':
			group[c.Name] = parquet.Int(64)
		case 'f':
			group[c.Name] = parquet.Leaf(parquet.DoubleType)
		default:
			group[c.Name] = parquet.String()
		}
	}
	schema := parquet.NewSchema("front", group)
	// The schema orders columns by name; map ours onto it.
	at := make(map[string]int, len(cols))
	for i, f := range schema.Fields() {
		at[f.Name()] = i
	}
	w := parquet.NewWriter(file, schema, parquet.Compression(&parquet.Zstd))
	prow := make(parquet.Row, len(cols))
	for _, row := range rows {
		for i, v := range row {
			var pv parquet.Value
			switch v := v.(type) {
			case int64:
				pv = parquet.Int64Value(v)
			case float64:
				pv = parquet.DoubleValue(v)
			case string:
				pv = parquet.ByteArrayValue([]byte(v))
			}
			k := at[cols[i].Name]
			prow[k] = pv.Level(0, 0, k)
		}
		if _, err := w.WriteRows([]parquet.Row{prow}); err != nil {
			return err
		}
	}
	return w.Close()
}
