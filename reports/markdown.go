package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
)

// Markdown renders the report as GitHub-flavoured Markdown; figures are
// linked as the SVG files written beside it.
func (rep *Report) Markdown() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\nPicked solution: **%s**. Energy figures are on the %s split. Hindsight on test: the row each preset would have chosen had it seen the test split, and whether that row meets the bound there.\n", rep.title(), rep.Pick.Label, rep.energySplit())
	for _, t := range rep.tables() {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Caption)
		writeMarkdownTable(&b, t.Header, t.Rows)
	}
	b.WriteString("\n## Figures\n\n")
	for _, f := range rep.Figures() {
		fmt.Fprintf(&b, "![%s](%s.svg)\n\n", f.Title, f.Name)
	}
	if rep.Paraver != nil {
		fmt.Fprintf(&b, "Paraver trace of the node states: `%s`, `%s`, `%s`.\n", ParaverPRV, ParaverPCF, ParaverROW)
	}
	return b.Bytes(), nil
}

func writeMarkdownTable(b *bytes.Buffer, header []string, rows [][]string) {
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteString("\n")
	}
	line(header)
	b.WriteString("|")
	for i := range header {
		if i == 0 {
			b.WriteString(" --- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		line(r)
	}
}

func mdEscape(s string) string {
	if s == "" {
		return " "
	}
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// CSV renders the holdout table for programs: every digit, feasibility
// as true or false, one row per preset.
func (rep *Report) CSV() ([]byte, error) {
	t := rep.holdoutTable(true)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(t.Header); err != nil {
		return nil, err
	}
	if err := w.WriteAll(t.Rows); err != nil {
		return nil, fmt.Errorf("reports: csv: %w", err)
	}
	return b.Bytes(), nil
}
