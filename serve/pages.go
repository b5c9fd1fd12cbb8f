package serve

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/url"
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
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/summary"
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

func intField(v url.Values, name string, def, lo, hi int) (int, error) {
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
// Request, checking every value: param.NAME holds a parameter value of
// the policy (simulate), presets the presets, one per line (tune);
// policy is repeated to tune several policies (tune); cluster is "trace"
// (the trace header's nodes, with the power model named by model,
// simulate only) or "file" (the cluster file in cluster_text, YAML or
// JSON as `ecotune simulate --cluster` reads it). An error names the
// field, and for a cluster file the file's own field or line.
func ParseRequest(kind string, v url.Values) (Request, error) {
	req := Request{Kind: kind, Trace: strings.TrimSpace(v.Get("trace")), Scheduler: strings.TrimSpace(v.Get("scheduler"))}
	if req.Trace == "" {
		req.Trace = EmbeddedTrace
	}
	if req.Trace != EmbeddedTrace && !validID(req.Trace) {
		return req, fmt.Errorf("trace: no trace %q", req.Trace)
	}
	spec, err := parsePolicies(kind, v, &req)
	if err != nil {
		return req, err
	}
	if err := parseCluster(kind, v, &req); err != nil {
		return req, err
	}
	if err := parseRun(kind, v, &req); err != nil {
		return req, err
	}
	if kind == KindSimulate {
		return req, parseParams(spec, v, &req)
	}
	if err := parseBudget(v, &req); err != nil {
		return req, err
	}
	return req, parsePresets(v, &req)
}

// parsePolicies reads the policy fields into req (see ParseRequest) and
// returns the first policy's Spec.
func parsePolicies(kind string, v url.Values, req *Request) (policy.Spec, error) {
	var names []string
	for _, p := range v["policy"] {
		if p = strings.TrimSpace(p); p != "" {
			names = append(names, p)
		}
	}
	switch {
	case len(names) == 0:
		return policy.Spec{}, errors.New("policy: choose a policy (`ecotune policies` lists them)")
	case len(names) > 1 && kind == KindSimulate:
		return policy.Spec{}, fmt.Errorf("policy: a simulation replays one policy, not %d", len(names))
	case len(names) > maxPolicies:
		return policy.Spec{}, fmt.Errorf("policy: %d policies, more than the %d a tuning compares", len(names), maxPolicies)
	}
	spec, err := policy.Lookup(names[0])
	if err != nil {
		return spec, fmt.Errorf("policy: %w", err)
	}
	req.Policy = names[0]
	if len(names) > 1 {
		// As `ecotune tune --policies` checks them.
		if err := policy.CheckTunable(names); err != nil {
			return spec, err
		}
		req.Policy, req.Policies = "", names
	}
	return spec, nil
}

// parseRun reads the scheduler and seed fields into req: the default
// scheduler when none is given, seed 1 for a tuning without one.
func parseRun(kind string, v url.Values, req *Request) error {
	switch req.Scheduler {
	case "":
		req.Scheduler = sim.DefaultScheduler
	case sim.EASY, sim.FCFS, sim.Conservative:
	default:
		return fmt.Errorf("scheduler: %q is not easy, fcfs or conservative", req.Scheduler)
	}
	if s := strings.TrimSpace(v.Get("seed")); s != "" {
		var err error
		if req.Seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			return fmt.Errorf("seed: %q is not a whole number", s)
		}
	} else if kind == KindTune {
		req.Seed = 1
	}
	return nil
}

// parseParams reads a simulation's param.NAME fields into req.Set and
// checks them against the policy's parameters.
func parseParams(spec policy.Spec, v url.Values, req *Request) error {
	req.Set = map[string]string{}
	for _, p := range spec.Params {
		if s := strings.TrimSpace(v.Get("param." + p.Name)); s != "" {
			req.Set[p.Name] = s
		}
	}
	_, err := policy.ParseSet(spec, setArgs(req.Set))
	return err
}

// parseBudget reads a tuning's evaluations, generations, population and
// islands into req, each within its limit.
func parseBudget(v url.Values, req *Request) error {
	var err error
	if req.Evaluations, err = intField(v, "evaluations", 300, 0, maxEvaluations); err != nil {
		return err
	}
	if req.Generations, err = intField(v, "generations", search.DefaultGenerations, 1, maxGenerations); err != nil {
		return err
	}
	if req.Population, err = intField(v, "population", search.DefaultNSGA2().Population, 4, maxPopulation); err != nil {
		return err
	}
	req.Islands, err = intField(v, "islands", search.DefaultNSGA2().Islands, 1, maxIslands)
	return err
}

// parsePresets reads a tuning's presets, one per line, into req.Presets.
func parsePresets(v url.Values, req *Request) error {
	for _, line := range strings.Split(v.Get("presets"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if _, err := pick.ParsePreset(line); err != nil {
			return fmt.Errorf("presets: %w", err)
		}
		req.Presets = append(req.Presets, line)
	}
	return nil
}

// maxPolicies is the most policies one tuning compares.
const maxPolicies = 16

// maxClusterText bounds a cluster file from the page, in bytes.
const maxClusterText = 256 << 10

// parseCluster reads the cluster fields into req (see ParseRequest).
func parseCluster(kind string, v url.Values, req *Request) error {
	c := strings.TrimSpace(v.Get("cluster"))
	text := v.Get("cluster_text")
	switch c {
	case "":
		if strings.TrimSpace(text) != "" {
			c = ClusterFile
		}
	case ClusterTrace:
		c = ""
	case ClusterFile:
	default:
		return fmt.Errorf("cluster: %q is not %s or %s", c, ClusterTrace, ClusterFile)
	}
	if c == ClusterFile {
		switch {
		case strings.TrimSpace(text) == "":
			return errors.New(`cluster file: empty: paste or upload a cluster file (YAML or JSON: README.md, "Cluster files"; ecotune cluster --from TRACE writes one)`)
		case len(text) > maxClusterText:
			return fmt.Errorf("cluster file: %d bytes, more than the limit of %d", len(text), maxClusterText)
		}
		if _, err := sim.ParseCluster([]byte(text)); err != nil {
			return fmt.Errorf("cluster file: %w", err)
		}
		req.Cluster, req.ClusterText = ClusterFile, text
		return nil
	}
	model := strings.TrimSpace(v.Get("model"))
	if model == "" || model == defaultModel {
		return nil
	}
	if kind == KindTune {
		return fmt.Errorf("model: %q: a tuning's nodes have the %s model unless a cluster file gives theirs (ecotune tune has no --model)", model, defaultModel)
	}
	if _, err := sim.Model(model); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	req.Model = model
	return nil
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
	var presets []string
	for _, p := range pick.DefaultPresets() {
		presets = append(presets, p.Name)
	}
	var models []string
	if kind == KindSimulate {
		models = sim.ModelNames()
	}
	return map[string]any{"Policies": pols, "Policy": cur, "Traces": s.traces(), "Trace": r.URL.Query().Get("trace"),
		"Models": models, "DefaultPresets": strings.Join(presets, ", "),
		// sim.DefaultScheduler first and selected, as on the command line.
		"Schedulers": []string{sim.EASY, sim.FCFS, sim.Conservative}, "DefaultScheduler": sim.DefaultScheduler}
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
	v, err := formWithUpload(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, kind+": "+err.Error())
		return
	}
	req, err := ParseRequest(kind, v)
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

// formWithUpload is the request's form, with an uploaded cluster file
// (cluster_upload, multipart) as the cluster_text it stands for.
func formWithUpload(r *http.Request) (url.Values, error) {
	v := r.PostForm
	if r.MultipartForm == nil || len(r.MultipartForm.File["cluster_upload"]) == 0 {
		return v, nil
	}
	fh := r.MultipartForm.File["cluster_upload"][0]
	if fh.Size == 0 && fh.Filename == "" {
		return v, nil // the form's empty file input
	}
	if fh.Size > maxClusterText {
		return nil, fmt.Errorf("cluster file: %d bytes, more than the limit of %d", fh.Size, maxClusterText)
	}
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("cluster file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxClusterText+1))
	if err != nil {
		return nil, fmt.Errorf("cluster file: %w", err)
	}
	if strings.TrimSpace(v.Get("cluster_text")) != "" {
		return nil, errors.New("cluster file: both pasted and uploaded: give one")
	}
	out := url.Values{}
	for k, x := range v {
		out[k] = x
	}
	out.Set("cluster_text", string(b))
	if out.Get("cluster") == "" {
		out.Set("cluster", ClusterFile)
	}
	return out, nil
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
	Infeasible string // why `ecotune export` refuses the pick without --force
	Params     []string
	Rules      []string
	Slurm      []string
}

// HindsightMissed reports whether the preset's hindsight member misses
// its bound on the test split (false when there is none). A template's
// "not" takes a non-nil *bool as true whatever it points to.
func (p pickView) HindsightMissed() bool {
	return p.HindsightFeasible != nil && !*p.HindsightFeasible
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

// tuneView is one tuning run's results on the page: of the job's only
// policy, or of one of several (Policy).
type tuneView struct {
	ID, Policy, Files string // Files: the run's path under files/
	Fronts            []int
	Picks             []pickView
	Timelines         []string
	Report, HasTest   bool
	Rows              int
}

func (s *Server) tuneResult(j Job, data map[string]any) error {
	if len(j.Request.Policies) == 0 {
		v, err := s.tuneRunView(j, "")
		if err != nil {
			return err
		}
		data["Tune"] = v
		return nil
	}
	var sum summary.PoliciesSummary
	if err := run.ReadJSON(filepath.Join(s.jobs.dir(j.ID), runSubdir, summary.SummaryJSON), &sum); err != nil {
		return err
	}
	var views []tuneView
	for _, p := range sum.Policies {
		v, err := s.tuneRunView(j, p.Policy)
		if err != nil {
			return fmt.Errorf("policy %s: %w", p.Policy, err)
		}
		views = append(views, v)
	}
	data["Summary"], data["PolicyRuns"], data["SummaryText"] = &sum, views, reports.PoliciesText(&sum)
	return nil
}

// policyDir is the run directory of a job's policy: the job's only one
// (pol ""), or one of the several it tuned.
func (s *Server) policyDir(j Job, pol string) (string, error) {
	dir := filepath.Join(s.jobs.dir(j.ID), runSubdir)
	if len(j.Request.Policies) == 0 {
		if pol != "" && pol != j.Request.Policy {
			return "", fmt.Errorf("run %s tuned %s, not %q", j.ID, j.Request.Policy, pol)
		}
		return dir, nil
	}
	for _, p := range j.Request.Policies {
		if p == pol {
			return filepath.Join(dir, p), nil
		}
	}
	return "", fmt.Errorf("run %s tuned %s: choose one (policy=NAME), not %q", j.ID, j.Request.PolicyText(), pol)
}

// tuneRunView loads one tuning run of a job for its results page.
func (s *Server) tuneRunView(j Job, pol string) (tuneView, error) {
	v := tuneView{ID: j.ID, Policy: pol, Files: runSubdir}
	if pol != "" {
		v.Files = runSubdir + "/" + pol
	}
	dir, err := s.policyDir(j, pol)
	if err != nil {
		return v, err
	}
	rr, err := reports.LoadRun(dir)
	if err != nil {
		return v, err
	}
	figs, err := reports.FrontFigures(rr)
	if err != nil {
		return v, err
	}
	for i := range figs {
		v.Fronts = append(v.Fronts, i)
	}
	for _, h := range reports.Holdout(rr) {
		v.Picks = append(v.Picks, newPickView(rr, h))
	}
	v.Timelines = timelineFigures(dir)
	if _, err := os.Stat(filepath.Join(dir, "report", reports.ReportHTML)); err == nil {
		v.Report = true
	}
	v.Rows = len(rr.Front.Solutions)
	v.HasTest = rr.Meta != nil && len(v.Picks) > 0 && v.Picks[0].Test != nil
	return v, nil
}

// newPickView is the results page's view of holdout row h of rr: the
// pick's parameters, its rules in force and its slurm.conf block.
func newPickView(rr *reports.Run, h reports.HoldoutRow) pickView {
	pv := pickView{HoldoutRow: h}
	sol := rr.Front.Solutions[h.Row]
	pv.Params, pv.Rules = configLines(sol.Config)
	if p, err := rr.Pick(h.Preset); err == nil {
		pv.Infeasible = p.Infeasible()
		if rs, err := reports.RuleSet(rr, p); err == nil {
			pv.Slurm = slurmLines(rs)
		}
	}
	return pv
}

// configLines are a configuration's parameters, "name=value" in name
// order, and the text of its fuzzy rules in force.
func configLines(c policy.Config) (params, rules []string) {
	names := make([]string, 0, len(c.Params))
	for k := range c.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		params = append(params, fmt.Sprintf("%s=%s", k, num(c.Params[k])))
	}
	if fz := c.Fuzzy; fz != nil {
		for _, rule := range fz.Rules {
			if rule.Then != fuzzy.NoRule {
				rules = append(rules, fz.RuleText(rule))
			}
		}
	}
	return params, rules
}

// slurmLines is the slurm.conf block of rule set rs, its unmapped
// settings as comments, or a comment saying why there is none.
func slurmLines(rs *policy.RuleSet) []string {
	var lines []string
	sc, err := reports.Slurm(rs, reports.SlurmOptions{})
	if err != nil {
		lines = []string{"# no slurm.conf block: " + err.Error()}
	}
	lines = append(lines, sc.Lines...)
	for _, u := range sc.Unmapped {
		lines = append(lines, "# "+u)
	}
	return lines
}

// timelineFigures are the timeline figures (slots, nodes) of the report
// in run directory dir, when it has them.
func timelineFigures(dir string) []string {
	var names []string
	if entries, err := os.ReadDir(filepath.Join(dir, "report")); err == nil {
		for _, e := range entries {
			n := e.Name()
			if strings.HasSuffix(n, ".svg") && (strings.Contains(n, "slots") || strings.Contains(n, "nodes")) {
				names = append(names, n)
			}
		}
	}
	return names
}

// frontSVG renders front figure n of a run with the reports code.
func (s *Server) frontSVG(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	n, err := strconv.Atoi(strings.TrimSuffix(r.PathValue("n"), ".svg"))
	dir, derr := s.policyDir(j, r.URL.Query().Get("policy"))
	if derr != nil || j.Request.Kind != KindTune {
		s.fail(w, r, http.StatusNotFound, "no such figure")
		return
	}
	rr, lerr := reports.LoadRun(dir)
	if err != nil || lerr != nil {
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
	pol := r.URL.Query().Get("policy")
	rdir, err := s.policyDir(j, pol)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "export: "+err.Error())
		return
	}
	rr, err := reports.LoadRun(rdir)
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
	q := r.URL.Query()
	// As `ecotune export` refuses an infeasible preset unless --force.
	if why := pick.Infeasible(); why != "" {
		if q.Get("force") != "1" {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("export: preset %s is infeasible: %s; pick another preset (rel10 is relative to always-on) or a row, or export it anyway (force=1, marked in the rule set)", pick.Label, why))
			return
		}
		rs.Provenance.Feasibility.Forced = true
	}
	if q.Get("slurm") == "1" {
		s.sendSlurm(w, r, j, rs, pick, rdir)
		return
	}
	s.sendRuleSet(w, r, j, pol, rs, pick)
}

// sendSlurm sends the slurm.conf block of rule set rs, the pick of run
// directory rdir of job j (exportPick with slurm=1).
func (s *Server) sendSlurm(w http.ResponseWriter, r *http.Request, j Job, rs *policy.RuleSet, pick reports.Pick, rdir string) {
	sc, err := reports.Slurm(rs, reports.SlurmOptions{})
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "export: "+err.Error())
		return
	}
	var b strings.Builder
	sc.WriteText(&b, rs.Policy.Name, pick.Label, rdir)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="slurm-%s-row%d.conf"`, j.ID, pick.Row))
	io.WriteString(w, b.String())
}

// sendRuleSet writes rule set rs, the pick of policy pol of job j, into
// the job's exports/ and sends it.
func (s *Server) sendRuleSet(w http.ResponseWriter, r *http.Request, j Job, pol string, rs *policy.RuleSet, pick reports.Pick) {
	dir := filepath.Join(s.jobs.dir(j.ID), "exports")
	exports, err := s.sub(runsDir + j.ID + "/exports")
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	defer exports.Close()
	// The file is named by the row and a policy of the catalog, never by
	// the request's text.
	name := fmt.Sprintf("rules-row%d.json", pick.Row)
	if len(j.Request.Policies) > 0 {
		name = fmt.Sprintf("rules-%s-row%d.json", pol, pick.Row)
	}
	path := filepath.Join(dir, name)
	if err := policy.WriteRuleSet(path, rs, true); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if err := exports.Restrict(); err != nil { // WriteRuleSet writes by path
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="rules-%s-%s"`, j.ID, name[len("rules-"):]))
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
