package reports

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
)

// htmlFigure is one figure as the HTML report embeds it.
type htmlFigure struct {
	Name  string
	Title string
	Src   template.URL // data: URI of the SVG or PNG
}

var htmlTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 2em auto; max-width: 78em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
table#rules td, table#run td, table#replay td, table#objectives td { text-align: left; }
thead th { background: #eee; }
td.INFEASIBLE { color: #b00; font-weight: bold; }
figure { margin: 1em 0; } figure img { width: 100%; max-width: 72em; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #555; }
.scroll { overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Picked solution: <strong>{{.Pick}}</strong>. Energy figures are on the {{.EnergySplit}} split; saving is against always-on, distance is above the clairvoyant oracle. Hindsight on test: the row each preset would have chosen had it seen the test split, and whether that row meets the bound there.</p>
<h2>Holdout</h2>
{{template "table" .Holdout}}
<h2>Pareto fronts</h2>
{{range .Fronts}}{{template "figure" .}}{{end}}
{{if .Timelines}}<h2>Timeline of the picked solution on the test split</h2>
{{template "table" .Replay}}
{{range .Breakdowns}}{{template "table" .}}{{end}}
{{range .Timelines}}{{template "figure" .}}{{end}}
<p>Paraver trace of the node states: <code>solution.prv</code>, <code>solution.pcf</code>, <code>solution.row</code>.</p>
{{end}}
<h2>Details</h2>
{{range .Details}}{{template "table" .}}{{end}}
<p><small>Written by ecotune {{.Version}}. Self-contained: open it offline.</small></p>
</body>
</html>
{{define "table"}}<div class="scroll">
<table id="{{.ID}}">
<caption>{{.Caption}}</caption>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td class="{{.}}">{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
</div>
{{end}}
{{define "figure"}}<figure id="{{.Name}}"><img src="{{.Src}}" alt="{{.Title}}"><figcaption>{{.Title}}</figcaption></figure>
{{end}}`))

// HTML renders the report as one self-contained HTML page: tables and
// the figures (rendered, by name, in each figure's embedFormat) embedded
// as data: URIs, no external asset.
func (rep *Report) HTML(rendered map[string][]byte) ([]byte, error) {
	embed := func(figs []*Figure) ([]htmlFigure, error) {
		out := make([]htmlFigure, 0, len(figs))
		for _, f := range figs {
			img, ok := rendered[f.Name]
			if !ok {
				return nil, fmt.Errorf("reports: html: figure %s was not rendered", f.Name)
			}
			mime := "image/svg+xml"
			if f.embedFormat() == PNG {
				mime = "image/png"
			}
			src := "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img)
			out = append(out, htmlFigure{Name: f.Name, Title: f.Title, Src: template.URL(src)})
		}
		return out, nil
	}
	fronts, err := embed(rep.Fronts)
	if err != nil {
		return nil, err
	}
	timelines, err := embed(rep.Timelines)
	if err != nil {
		return nil, err
	}
	data := map[string]any{
		"Title":       rep.title(),
		"Pick":        rep.Pick.Label,
		"EnergySplit": rep.energySplit(),
		"Holdout":     rep.holdoutTable(false),
		"Replay":      rep.replayTableIf(),
		"Breakdowns":  rep.breakdownTables(),
		"Details":     rep.detailTables(),
		"Fronts":      fronts,
		"Timelines":   timelines,
		"Version":     rep.Run.Meta.Version,
	}
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("reports: html: %w", err)
	}
	return b.Bytes(), nil
}

func (rep *Report) title() string {
	m := rep.Run.Meta
	return fmt.Sprintf("ecotune report: %s on %s", rep.Run.Front.Policy, m.Trace)
}

func (rep *Report) energySplit() string {
	if len(rep.Holdout) > 0 {
		return rep.Holdout[0].EnergySplit
	}
	return "train"
}
