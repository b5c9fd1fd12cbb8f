package serve

import (
	"fmt"
	"net/http"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/reports"
)

// maxCompare is the most runs one comparison plots.
const maxCompare = 8

// comparable lists the finished tuning runs.
func (s *Server) comparable() []Job {
	var out []Job
	for _, j := range s.jobs.list() {
		if j.Request.Kind == KindTune && j.State == Done {
			out = append(out, j)
		}
	}
	return out
}

func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["run"]
	if len(ids) > 0 {
		if _, _, err := s.compareRuns(ids); err != nil {
			s.fail(w, r, http.StatusBadRequest, "compare: "+err.Error())
			return
		}
	}
	sel := map[string]bool{}
	for _, id := range ids {
		sel[id] = true
	}
	q := r.URL.Query()
	q.Del("token")
	s.render(w, http.StatusOK, "compare", "Compare runs", map[string]any{"Runs": s.comparable(), "Selected": sel, "Query": q.Encode(), "Plot": len(ids) > 0})
}

// compareRuns loads the runs to compare: known, finished tunings, all
// with the same first two objectives; a tuning of several policies gives
// each policy's run. It returns the runs and their legends.
func (s *Server) compareRuns(ids []string) ([]*reports.Run, []string, error) {
	if len(ids) < 1 || len(ids) > maxCompare {
		return nil, nil, fmt.Errorf("choose 1 to %d runs, not %d", maxCompare, len(ids))
	}
	var runs []*reports.Run
	var labels []string
	for _, id := range ids {
		j, err := s.finishedTuning(id)
		if err != nil {
			return nil, nil, err
		}
		for _, pol := range tunedPolicies(j) {
			rr, err := s.loadCompared(j, id, pol)
			if err != nil {
				return nil, nil, err
			}
			if len(runs) > 0 {
				if err := sameObjectives(runs[0], rr, ids[0], id); err != nil {
					return nil, nil, err
				}
			}
			runs = append(runs, rr)
			labels = append(labels, fmt.Sprintf("%s %s seed %d", id, rr.Front.Policy, rr.Meta.Seed))
		}
	}
	return runs, labels, nil
}

// finishedTuning is job id, which must be a finished tuning.
func (s *Server) finishedTuning(id string) (Job, error) {
	j, ok := Job{}, false
	if validID(id) {
		j, ok = s.jobs.get(id)
	}
	if !ok {
		return j, fmt.Errorf("no run %q", id)
	}
	if j.Request.Kind != KindTune || j.State != Done {
		return j, fmt.Errorf("run %s is not a finished tuning", id)
	}
	return j, nil
}

// tunedPolicies are the policies of job j's run directories: "" for a
// tuning of one policy.
func tunedPolicies(j Job) []string {
	if len(j.Request.Policies) > 0 {
		return j.Request.Policies
	}
	return []string{""}
}

// loadCompared loads the run of policy pol of job j (run id), which must
// have at least two objectives.
func (s *Server) loadCompared(j Job, id, pol string) (*reports.Run, error) {
	dir, err := s.policyDir(j, pol)
	if err != nil {
		return nil, err
	}
	rr, err := reports.LoadRun(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	if len(rr.Front.Objectives) < 2 {
		return nil, fmt.Errorf("run %s has fewer than two objectives", id)
	}
	return rr, nil
}

// sameObjectives checks that run rr of id has the first two objectives
// of run first of firstID.
func sameObjectives(first, rr *reports.Run, firstID, id string) error {
	a, b := first.Front.Objectives, rr.Front.Objectives
	if a[0].Name != b[0].Name || a[1].Name != b[1].Name {
		return fmt.Errorf("run %s's objectives (%s, %s) differ from run %s's (%s, %s)", id, b[0].Name, b[1].Name, firstID, a[0].Name, a[1].Name)
	}
	return nil
}

// compareSVG draws the runs' fronts (rank 0) on one plot per split, the
// first two objectives, each run its own colour and mark, rendered by the
// reports code.
func (s *Server) compareSVG(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["run"]
	runs, labels, err := s.compareRuns(ids)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "compare: "+err.Error())
		return
	}
	fig, err := compareFigure(runs, labels)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "compare: "+err.Error())
		return
	}
	b, err := fig.Render(reports.SVG)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "compare: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(b)
}

func compareFigure(runs []*reports.Run, labels []string) (*reports.Figure, error) {
	xo, err := objectives.Lookup(runs[0].Front.Objectives[0].Name)
	if err != nil {
		return nil, err
	}
	yo, err := objectives.Lookup(runs[0].Front.Objectives[1].Name)
	if err != nil {
		return nil, err
	}
	var row []*plot.Plot
	for _, split := range []string{"train", "test"} {
		p := plot.New()
		p.Title.Text = "fronts, " + split + " split"
		p.X.Label.Text, p.Y.Label.Text = xo.AxisLabel(), yo.AxisLabel()
		p.Legend.Top = true
		drawn := false
		for i, rr := range runs {
			var pts plotter.XYs
			for _, sol := range rr.Front.Solutions {
				sc := sol.On(split)
				if sol.Rank != 0 || sc == nil {
					continue
				}
				pts = append(pts, plotter.XY{X: xo.Display(xo.Of(*sc)), Y: yo.Display(yo.Of(*sc))})
			}
			if len(pts) == 0 {
				continue
			}
			drawn = true
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i), Shape: plotutil.Shape(i), Radius: vg.Points(3)}
			p.Add(sc)
			p.Legend.Add(labels[i], sc)
		}
		if drawn {
			row = append(row, p)
		}
	}
	if len(row) == 0 {
		return nil, fmt.Errorf("the runs have no front")
	}
	return &reports.Figure{Name: "compare", Title: "fronts", Plots: [][]*plot.Plot{row}, Width: vg.Points(360 * float64(len(row))), Height: vg.Points(300)}, nil
}
