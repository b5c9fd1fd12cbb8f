package serve

import (
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

var funcs = template.FuncMap{
	"join": strings.Join,
	"f4":   func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) },
	"num":  num,
}

// num prints a number: whole numbers without a fraction.
func num(x any) string {
	var v float64
	switch x := x.(type) {
	case float64:
		v = x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	default:
		return fmt.Sprint(x)
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// Limits of a tuning request from the page.
const (
	maxEvaluations = 1_000_000
	maxGenerations = 100_000
	maxPopulation  = 10_000
	maxIslands     = 64
)

// formValues are the forms' fields as the server parses them.
type formValues interface {
	Get(string) string
}

func intField(v formValues, name string, def, lo, hi int) (int, error) {
	s := strings.TrimSpace(v.Get(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: %q is not a whole number in [%d, %d]", name, s, lo, hi)
	}
	return n, nil
}

// ParseRequest reads a simulation's or tuning's form fields into a
// Request, checking every value; fields holds the parameter values of the
// policy (simulate) and the presets, one per line (tune).
func ParseRequest(kind string, v formValues) (Request, error) {
	req := Request{Kind: kind, Trace: strings.TrimSpace(v.Get("trace")), Policy: strings.TrimSpace(v.Get("policy")), Scheduler: strings.TrimSpace(v.Get("scheduler"))}
	if req.Trace == "" {
		req.Trace = EmbeddedTrace
	}
	if req.Trace != EmbeddedTrace && !validID(req.Trace) {
		return req, fmt.Errorf("trace: no trace %q", req.Trace)
	}
	spec, err := policy.Lookup(req.Policy)
	if err != nil {
		return req, fmt.Errorf("policy: %w", err)
	}
	switch req.Scheduler {
	case "":
		req.Scheduler = sim.EASY
		if kind == KindSimulate {
			req.Scheduler = sim.FCFS
		}
	case sim.EASY, sim.FCFS:
	default:
		return req, fmt.Errorf("scheduler: %q is not easy or fcfs", req.Scheduler)
	}
	if s := strings.TrimSpace(v.Get("seed")); s != "" {
		if req.Seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			return req, fmt.Errorf("seed: %q is not a whole number", s)
		}
	} else if kind == KindTune {
		req.Seed = 1
	}
	if kind == KindSimulate {
		req.Set = map[string]string{}
		for _, p := range spec.Params {
			if s := strings.TrimSpace(v.Get("param." + p.Name)); s != "" {
				req.Set[p.Name] = s
			}
		}
		if _, err := policy.ParseSet(spec, setArgs(req.Set)); err != nil {
			return req, err
		}
		return req, nil
	}
	if req.Evaluations, err = intField(v, "evaluations", 300, 0, maxEvaluations); err != nil {
		return req, err
	}
	if req.Generations, err = intField(v, "generations", 150, 1, maxGenerations); err != nil {
		return req, err
	}
	if req.Population, err = intField(v, "population", 32, 4, maxPopulation); err != nil {
		return req, err
	}
	if req.Islands, err = intField(v, "islands", 2, 1, maxIslands); err != nil {
		return req, err
	}
	for _, line := range strings.Split(v.Get("presets"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if _, err := tuner.ParsePreset(line); err != nil {
			return req, fmt.Errorf("presets: %w", err)
		}
		req.Presets = append(req.Presets, line)
	}
	return req, nil
}

type policyView struct {
	policy.Spec
	Selected bool
}

func (s *Server) formData(r *http.Request, kind string) map[string]any {
	sel := r.URL.Query().Get("policy")
	if sel == "" {
		sel = "idle-timeout"
	}
	var pols []policyView
	var cur policy.Spec
	for _, p := range policy.All() {
		if kind == KindTune && len(p.Params) == 0 && p.Fuzzy == nil {
			continue
		}
		pols = append(pols, policyView{p, p.Name == sel})
		if p.Name == sel {
			cur = p
		}
	}
	return map[string]any{"Policies": pols, "Policy": cur, "Traces": s.traces(), "Trace": r.URL.Query().Get("trace")}
}

func (s *Server) simulateForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "simulate", "New simulation", s.formData(r, KindSimulate))
}

func (s *Server) tuneForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "tune", "New tuning", s.formData(r, KindTune))
}

func (s *Server) simulateStart(w http.ResponseWriter, r *http.Request) { s.start(w, r, KindSimulate) }
func (s *Server) tuneStart(w http.ResponseWriter, r *http.Request)     { s.start(w, r, KindTune) }

func (s *Server) start(w http.ResponseWriter, r *http.Request, kind string) {
	req, err := ParseRequest(kind, r.PostForm)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, kind+": "+err.Error())
		return
	}
	_, name, file, err := s.traceRef(req.Trace)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, kind+": "+err.Error())
		return
	}
	if _, err := s.jobs.submit(req, name, file); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	http.Redirect(w, r, "/runs", http.StatusSeeOther)
}

// traceRef names a trace without reading it: its name and file.
func (s *Server) traceRef(id string) (string, string, string, error) {
	if id == EmbeddedTrace {
		return id, "embedded", "", nil
	}
	info, err := s.traceInfo(id)
	if err != nil {
		return "", "", "", err
	}
	return id, info.Name, filepath.Join(s.data, "traces", id, traceFile), nil
}

func (s *Server) runsPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "runs", "Runs", s.jobs.list())
}

// events streams every job's changes as server-sent events: first each
// job's state, then each change.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	c, jobs := s.jobs.subscribe()
	defer s.jobs.unsubscribe(c)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	for i := range jobs {
		fmt.Fprintf(w, "data: %s\n\n", eventOf(&jobs[i]))
	}
	fl.Flush()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.jobs.ctx.Done():
			return
		case b := <-c:
			fmt.Fprintf(w, "data: %s\n\n", b)
			fl.Flush()
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
		}
	}
}

// job finds the job of the request's {id}, or answers 404.
func (s *Server) job(w http.ResponseWriter, r *http.Request) (Job, bool) {
	id := r.PathValue("id")
	j, ok := Job{}, false
	if validID(id) {
		j, ok = s.jobs.get(id)
	}
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no run "+strconv.Quote(id))
	}
	return j, ok
}

func (s *Server) abortRun(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	s.jobs.abort(j.ID)
	if r.Header.Get("HX-Request") != "" {
		w.Header().Set("HX-Refresh", "true")
		return
	}
	http.Redirect(w, r, "/runs", http.StatusSeeOther)
}

func (s *Server) deleteRun(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	if _, err := s.jobs.remove(j.ID); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if r.Header.Get("HX-Request") != "" {
		w.Header().Set("HX-Redirect", "/runs")
		return
	}
	http.Redirect(w, r, "/runs", http.StatusSeeOther)
}

// pickView is one preset's pick on the results page.
type pickView struct {
	reports.HoldoutRow
	Params []string
	Rules  []string
	Slurm  []string
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	data := map[string]any{"Job": j}
	if j.State == Done {
		var err error
		if j.Request.Kind == KindSimulate {
			err = s.simulateResult(j, data)
		} else {
			err = s.tuneResult(j, data)
		}
		if err != nil {
			data["Err"] = err.Error()
		}
	}
	s.render(w, http.StatusOK, "run", j.Request.Kind+" "+j.ID, data)
}

type scoreRow struct{ Name, Label, Value, Unit string }

func (s *Server) simulateResult(j Job, data map[string]any) error {
	var res SimResult
	if err := run.ReadJSON(filepath.Join(s.jobs.dir(j.ID), simResultFile), &res); err != nil {
		return err
	}
	var rows []scoreRow
	for _, o := range objectives.All() {
		rows = append(rows, scoreRow{o.Name, o.Label, o.Text(o.Of(res.Scores)), o.Unit})
	}
	data["Sim"], data["Scores"] = res, rows
	return nil
}

func (s *Server) tuneResult(j Job, data map[string]any) error {
	dir := filepath.Join(s.jobs.dir(j.ID), runSubdir)
	rr, err := reports.LoadRun(dir)
	if err != nil {
		return err
	}
	figs, err := reports.FrontFigures(rr)
	if err != nil {
		return err
	}
	var fronts []int
	for i := range figs {
		fronts = append(fronts, i)
	}
	var picks []pickView
	for _, h := range reports.Holdout(rr) {
		pv := pickView{HoldoutRow: h}
		sol := rr.Front.Solutions[h.Row]
		names := make([]string, 0, len(sol.Config.Params))
		for k := range sol.Config.Params {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			pv.Params = append(pv.Params, fmt.Sprintf("%s=%s", k, num(sol.Config.Params[k])))
		}
		if fz := sol.Config.Fuzzy; fz != nil {
			for _, rule := range fz.Rules {
				if rule.Then != fuzzy.NoRule {
					pv.Rules = append(pv.Rules, fz.RuleText(rule))
				}
			}
		}
		if p, err := rr.Pick(h.Preset); err == nil {
			if rs, err := reports.RuleSet(rr, p); err == nil {
				sc, err := reports.Slurm(rs, reports.SlurmOptions{})
				if err != nil {
					pv.Slurm = []string{"# no slurm.conf block: " + err.Error()}
				}
				pv.Slurm = append(pv.Slurm, sc.Lines...)
				for _, u := range sc.Unmapped {
					pv.Slurm = append(pv.Slurm, "# "+u)
				}
			}
		}
		picks = append(picks, pv)
	}
	// The report's timeline figures, when it has them.
	var timelines []string
	if entries, err := os.ReadDir(filepath.Join(dir, "report")); err == nil {
		for _, e := range entries {
			n := e.Name()
			if strings.HasSuffix(n, ".svg") && (strings.Contains(n, "slots") || strings.Contains(n, "nodes")) {
				timelines = append(timelines, n)
			}
		}
	}
	hasReport := false
	if _, err := os.Stat(filepath.Join(dir, "report", reports.ReportHTML)); err == nil {
		hasReport = true
	}
	data["Fronts"], data["Picks"], data["Timelines"], data["Report"], data["Rows"] = fronts, picks, timelines, hasReport, len(rr.Front.Solutions)
	data["HasTest"] = rr.Meta != nil && len(picks) > 0 && picks[0].Test != nil
	return nil
}

// frontSVG renders front figure n of a run with the reports code.
func (s *Server) frontSVG(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	n, err := strconv.Atoi(strings.TrimSuffix(r.PathValue("n"), ".svg"))
	rr, lerr := reports.LoadRun(filepath.Join(s.jobs.dir(j.ID), runSubdir))
	if err != nil || lerr != nil || j.Request.Kind != KindTune {
		s.fail(w, r, http.StatusNotFound, "no such figure")
		return
	}
	figs, err := reports.FrontFigures(rr)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if n < 0 || n >= len(figs) {
		s.fail(w, r, http.StatusNotFound, "no such figure")
		return
	}
	b, err := figs[n].Render(reports.SVG)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(b)
}

// exportPick writes the rule set of a pick (a preset or a row), as
// `ecotune export RUN_DIR --pick P -o rules.json` does, into the run's
// exports/ and sends it.
func (s *Server) exportPick(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	if j.Request.Kind != KindTune || j.State != Done {
		s.fail(w, r, http.StatusNotFound, "run "+j.ID+" has no front to export from")
		return
	}
	rr, err := reports.LoadRun(filepath.Join(s.jobs.dir(j.ID), runSubdir))
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	pick, err := rr.Pick(r.URL.Query().Get("pick"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "export: "+err.Error())
		return
	}
	rs, err := reports.RuleSet(rr, pick)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "export: "+err.Error())
		return
	}
	dir := filepath.Join(s.jobs.dir(j.ID), "exports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	// The file is named by the row, never by the request's text.
	path := filepath.Join(dir, fmt.Sprintf("rules-row%d.json", pick.Row))
	if err := policy.WriteRuleSet(path, rs, true); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="rules-%s-row%d.json"`, j.ID, pick.Row))
	http.ServeFile(w, r, path)
}

// runFile serves a file of a run's own directory (the report and its
// figures); os.Root keeps every path inside it.
func (s *Server) runFile(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	root, err := os.OpenRoot(s.jobs.dir(j.ID))
	if err != nil {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	defer root.Close()
	rel := r.PathValue("path")
	if !fs.ValidPath(rel) {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	f, err := root.Open(rel)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'")
	http.ServeContent(w, r, st.Name(), st.ModTime(), f)
}
