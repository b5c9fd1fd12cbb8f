package tuner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ecotune/ecotune/datasets"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/exchange"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// Files of a distributed run directory: PlanFile holds everything an
// island and the merge need; IslandsDir holds each island's checkpoint
// and status (island-I/) and the migrants of each epoch
// (epoch-K/island-I.json, K = generation / migration interval).
const (
	PlanFile   = rundir.PlanJSON
	IslandsDir = exchange.IslandsDir
	StatusFile = "status.json"
)

// PlanVersion is the schema version of plan.json.
const PlanVersion = 1

// DefaultIslandTimeout is how long an island waits at a migration epoch
// for a neighbour's migrants before it skips that neighbour.
const DefaultIslandTimeout = 30 * time.Minute

// Plan is a tuning run whose islands run apart (local processes, Slurm
// array tasks): the problem and the settings, as plan.json records them.
type Plan struct {
	Version        int                  `json:"version"`
	Trace          string               `json:"trace"`
	TraceFile      string               `json:"trace_file,omitempty"`
	TraceFormat    string               `json:"trace_format,omitempty"`
	TraceLenient   bool                 `json:"trace_lenient,omitempty"`
	TraceSHA256    string               `json:"trace_sha256"`
	Command        []string             `json:"command"`
	ToolVersion    string               `json:"tool_version"`
	Policy         string               `json:"policy"`
	Split          rundir.Split         `json:"split"`
	Cluster        json.RawMessage      `json:"cluster"`
	Sim            sim.Options          `json:"sim"`
	Objectives     []Objective          `json:"objectives"`
	Constraints    []scoring.Constraint `json:"constraints,omitempty"`
	Presets        []pick.Preset        `json:"presets"`
	MaxFront       int                  `json:"max_front"`
	ReactiveIsland bool                 `json:"reactive_island,omitempty"`
	NoScheduleRule bool                 `json:"no_schedule_rule,omitempty"`
	PickWindows    int                  `json:"pick_windows,omitempty"`
	PickLoads      []float64            `json:"pick_loads,omitempty"`
	PickAggregate  string               `json:"pick_aggregate,omitempty"`
	Robust         *scoring.Robust      `json:"robust,omitempty"` // nil: plain
	Population     int                  `json:"population"`
	Generations    int                  `json:"generations"`
	Islands        int                  `json:"islands"`
	MigrationEvery int                  `json:"migration_every"`
	Migrants       int                  `json:"migrants"`
	Seed           int64                `json:"seed"`
	TimeoutSeconds float64              `json:"island_timeout_seconds"`
	Fields         rundir.Fingerprint   `json:"fields"`
	Fingerprint    string               `json:"fingerprint"`
}

// NewPlan is the plan of o for islands that run apart, each waiting at
// most timeout (0: DefaultIslandTimeout) for a neighbour's migrants.
func NewPlan(o Options, pv rundir.Provenance, timeout time.Duration) (*Plan, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	s, m := o.Settings, o.Method
	if s.Evaluations > 0 {
		return nil, fmt.Errorf("tuner: an evaluation budget (%d) counts all islands' evaluations and cannot be kept by islands that run apart: give generations instead", s.Evaluations)
	}
	if timeout <= 0 {
		timeout = DefaultIslandTimeout
	}
	p := &Plan{
		Version: PlanVersion, Trace: pv.Trace, TraceFile: pv.TraceFile, TraceFormat: pv.TraceFormat, TraceLenient: pv.TraceLenient,
		TraceSHA256: traceDigest(o.Trace), Command: pv.Command, ToolVersion: pv.Version,
		Policy: o.Policy, Split: o.Split, Cluster: ClusterJSON(*o.Cluster), Sim: o.Sim,
		Objectives: o.Objectives, Constraints: o.Constraints, Presets: o.Presets, MaxFront: o.MaxFront,
		ReactiveIsland: o.ReactiveIsland, NoScheduleRule: o.NoScheduleRule, PickWindows: o.PickWindows, PickLoads: o.PickLoads, PickAggregate: o.PickAggregate, Population: m.Population, Generations: s.Generations,
		Islands: m.Islands, MigrationEvery: m.MigrationEvery, Migrants: m.Migrants, Seed: s.Seed,
		TimeoutSeconds: timeout.Seconds(),
	}
	if !o.Robust.IsZero() {
		r := o.Robust
		p.Robust = &r
	}
	p.Fields = o.fingerprint()
	for k, v := range p.settingsFields() {
		p.Fields[k] = v
	}
	p.Fingerprint = p.Fields.Sum()
	return p, nil
}

// settingsFields are the fingerprint fields of the plan's search settings.
func (p *Plan) settingsFields() rundir.Fingerprint {
	f := rundir.Fingerprint{}
	for k, v := range map[string]any{"population": p.Population, "generations": p.Generations, "islands": p.Islands,
		"migration_every": p.MigrationEvery, "migrants": p.Migrants, "seed": p.Seed, "objectives": p.Objectives} {
		f[k] = rundir.FingerprintValue(v)
	}
	return f
}

// WritePlan prepares t.Dir (as Tune does) and writes the plan into it;
// with t.Force the islands of an earlier plan there (checkpoints,
// migrants, statuses) are removed.
func WritePlan(p *Plan, t rundir.Target) error {
	if err := t.Start(KindIslands); err != nil {
		return err
	}
	if t.Force {
		if err := os.RemoveAll(filepath.Join(t.Dir, IslandsDir)); err != nil {
			return fmt.Errorf("tuner: %w", err)
		}
	}
	r, err := t.OpenRoot()
	if err != nil {
		return err
	}
	defer r.Close()
	isl, err := r.MkSub(IslandsDir) // a link planted there is refused
	if err != nil {
		return err
	}
	isl.Close()
	return r.WriteJSON(PlanFile, p)
}

// ReadPlan reads dir's plan.json and checks its fingerprint.
func ReadPlan(dir string) (*Plan, error) {
	if err := rundir.CheckKind("tuner", dir, KindIslands); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, PlanFile)
	var p Plan
	if err := rundir.ReadJSON(path, &p); err != nil {
		return nil, err
	}
	switch {
	case p.Version != PlanVersion:
		return nil, fmt.Errorf("tuner: %s: version %d, this ecotune reads %d", path, p.Version, PlanVersion)
	case p.Fields.Sum() != p.Fingerprint:
		return nil, fmt.Errorf("tuner: %s: fingerprint %s does not match its fields (%s): edited or corrupt", path, p.Fingerprint, p.Fields.Sum())
	case len(p.Fields.Diff(mergeFields(p.Fields, p.settingsFields()))) > 0:
		return nil, fmt.Errorf("tuner: %s: %s differ from the plan's fingerprint fields: edited or corrupt", path, strings.Join(p.Fields.Diff(mergeFields(p.Fields, p.settingsFields())), ", "))
	case p.Islands < 1 || p.Population < 4 || p.Generations < 0 || p.MigrationEvery < 1:
		return nil, fmt.Errorf("tuner: %s: islands %d, population %d, generations %d, migration_every %d: not a plan", path, p.Islands, p.Population, p.Generations, p.MigrationEvery)
	}
	return &p, nil
}

// mergeFields is f with g's fields over it.
func mergeFields(f, g rundir.Fingerprint) rundir.Fingerprint {
	out := rundir.Fingerprint{}
	for k, v := range f {
		out[k] = v
	}
	for k, v := range g {
		out[k] = v
	}
	return out
}

// Options are the plan's Options on trace tr (which must be the plan's:
// its SHA-256 is checked) with workers parallel simulations.
func (p *Plan) Options(tr *datasets.Trace, workers int) (Options, error) {
	if d := traceDigest(tr); d != p.TraceSHA256 {
		return Options{}, fmt.Errorf("tuner: the trace's sha256 is %s, the plan's trace_sha256 %s: not the trace the run was planned on", d, p.TraceSHA256)
	}
	var c sim.Cluster
	if err := json.Unmarshal(p.Cluster, &c); err != nil {
		return Options{}, fmt.Errorf("tuner: plan: cluster: %w", err)
	}
	o := Options{
		Policy: p.Policy, Trace: tr, Split: p.Split, Cluster: &c, Sim: p.Sim, Objectives: p.Objectives,
		Constraints: p.Constraints, Presets: p.Presets, MaxFront: p.MaxFront, ReactiveIsland: p.ReactiveIsland, NoScheduleRule: p.NoScheduleRule,
		PickWindows: p.PickWindows, PickLoads: p.PickLoads, PickAggregate: p.PickAggregate,
		Settings: search.Settings{Generations: p.Generations, Seed: p.Seed, Workers: workers},
		Method:   search.NSGA2{Population: p.Population, Islands: p.Islands, MigrationEvery: p.MigrationEvery, Migrants: p.Migrants},
	}
	if p.Robust != nil {
		o.Robust = *p.Robust
	}
	o, err := o.withDefaults()
	if err != nil {
		return o, err
	}
	if _, ok := p.Fields["robust"]; ok && p.Robust == nil {
		return o, errors.New("tuner: plan: field robust is in the fingerprint, but the plan has no robust settings: edited?")
	}
	for k, v := range o.fingerprint() {
		if p.Fields[k] != v {
			return o, fmt.Errorf("tuner: plan: field %s is %q, but the plan describes %q: edited?", k, p.Fields[k], v)
		}
	}
	return o, nil
}

// Provenance is where the plan's trace came from and what made the plan.
func (p *Plan) Provenance() rundir.Provenance {
	return rundir.Provenance{Trace: p.Trace, TraceFile: p.TraceFile, TraceFormat: p.TraceFormat, TraceLenient: p.TraceLenient, Command: p.Command, Version: p.ToolVersion}
}

// Timeout is how long an island waits for a neighbour's migrants.
func (p *Plan) Timeout() time.Duration {
	return time.Duration(p.TimeoutSeconds * float64(time.Second))
}

// IslandDir is the directory of island i's checkpoint and status
// (exchange.IslandDir).
func IslandDir(dir string, i int) string { return exchange.IslandDir(dir, i) }

// IslandStatus is an island's progress, as islands/island-I/status.json
// records it after every generation.
type IslandStatus struct {
	Island      int             `json:"island"`
	Generation  int             `json:"generation"`
	Generations int             `json:"generations"`
	Evaluations int             `json:"evaluations"` // distinct candidates this island evaluated
	Hypervolume float64         `json:"hypervolume"` // of its first front, in the train split's box
	Skipped     []exchange.Skip `json:"skipped,omitempty"`
	Done        bool            `json:"done"`
	Interrupted bool            `json:"interrupted,omitempty"`
}

// ReadIslandStatus reads island i's status; ok is false when it has none
// (it never started).
func ReadIslandStatus(dir string, i int) (st IslandStatus, ok bool, err error) {
	path := filepath.Join(IslandDir(dir, i), StatusFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err := rundir.ReadJSON(path, &st); err != nil {
		return st, false, err
	}
	return st, true, nil
}

// TuneIsland runs island i of the plan p (o = p.Options) in the run
// directory dir: it resumes from the island's checkpoint when there is
// one, exchanges migrants through files under dir (FileExchange) and
// writes its status after every generation. Merge makes the run's front
// once every island is done.
func TuneIsland(ctx context.Context, p *Plan, o Options, dir string, i int, monitor Monitor) (*IslandStatus, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= p.Islands {
		return nil, fmt.Errorf("tuner: --index %d: the plan in %s has islands 0..%d", i, dir, p.Islands-1)
	}
	iroot, err := islandRoot(dir, i, true)
	if err != nil {
		return nil, err
	}
	defer iroot.Close()
	if _, err := iroot.RemoveStale(); err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	su, err := newSetup(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	defer su.scorer.Close()
	s := su.s
	st, _, err := ReadIslandStatus(dir, i)
	if err != nil {
		return nil, err
	}
	st = IslandStatus{Island: i, Generations: s.Generations, Skipped: st.Skipped}
	ex := &exchange.FileExchange{Dir: dir, Fingerprint: p.Fingerprint, MigrationEvery: su.m.MigrationEvery, Timeout: p.Timeout()}
	bctx, stopBeat := context.WithCancel(ctx)
	defer stopBeat()
	if err := ex.Beat(bctx, i); err != nil {
		return nil, err
	}
	ckw := &search.CheckpointWriter{Dir: iroot.Path(), Root: iroot.OS()}
	defer ckw.Close()
	s.Recorders = append(slices.Clip(s.Recorders), ckw, search.RecorderFunc(func(rs *search.Status) error {
		st.Generation, st.Evaluations = rs.Generation, rs.Evaluations
		st.Hypervolume = frontHypervolume(su.norm, rs.Front)
		st.Skipped = append(st.Skipped, ex.TakeSkipped()...)
		return iroot.WriteJSON(StatusFile, st)
	}))
	if monitor != nil {
		s.Recorders = append(s.Recorders, search.RecorderFunc(func(rs *search.Status) error {
			rs.Hypervolume = st.Hypervolume
			return monitor.Record(rs)
		}))
	}
	if _, err := iroot.Lstat(CheckpointJSON); err == nil {
		if s.Resume, err = search.ReadCheckpointIn(iroot.OS()); err != nil {
			return nil, err
		}
	}
	res, err := search.MinimizeIsland(ctx, su.prob, s, su.m, i, ex)
	if monitor != nil {
		monitor.Done()
	}
	if err != nil {
		return nil, err
	}
	st.Done, st.Interrupted = !res.Interrupted, res.Interrupted
	st.Skipped = append(st.Skipped, ex.TakeSkipped()...)
	if err := iroot.WriteJSON(StatusFile, st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Merge merges the islands of the plan p (o = p.Options) in dir into the
// run's front and writes front.json, front.csv, front.parquet and
// run.json exactly as Tune does for the same search in one process; the
// islands that did not take their whole part are named in run.json
// (missing_islands) and the front is the merge of what the others did.
func Merge(ctx context.Context, p *Plan, o Options, dir string) (*Outcome, error) {
	start := time.Now()
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	su, err := newSetup(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	defer su.scorer.Close()
	cks := make([]*search.Checkpoint, p.Islands)
	var missing []rundir.MissingIsland
	skipped := map[int][]string{}
	for i := range p.Islands {
		ck, err := readIslandCheckpoint(dir, i)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, rundir.MissingIsland{Island: i, Reason: "never ran (no checkpoint)"})
			continue
		case err != nil:
			return nil, err
		}
		if err := rundir.Check(ck.Source(), ck.Fields, search.IslandFingerprint(su.prob, su.s, su.m, i)); err != nil {
			return nil, fmt.Errorf("tuner: %w", err)
		}
		if err := ck.CheckIsland(p.Generations, p.Population); err != nil {
			return nil, err
		}
		cks[i] = ck
		if ck.Generation < p.Generations {
			missing = append(missing, rundir.MissingIsland{Island: i, Reason: fmt.Sprintf("stopped after generation %d of %d", ck.Generation, p.Generations)})
		}
		st, ok, err := ReadIslandStatus(dir, i)
		if err != nil {
			return nil, err
		}
		if ok {
			for _, sk := range st.Skipped {
				skipped[sk.Island] = append(skipped[sk.Island], fmt.Sprintf("island %d at generation %d", i, sk.Generation))
			}
		}
	}
	for j := range p.Islands {
		if len(skipped[j]) == 0 {
			continue
		}
		reason := fmt.Sprintf("its migrants never arrived (timeout): skipped by %s", joinShort(skipped[j]))
		k := slices.IndexFunc(missing, func(m rundir.MissingIsland) bool { return m.Island == j })
		if k < 0 {
			missing = append(missing, rundir.MissingIsland{Island: j, Reason: reason})
		} else {
			missing[k].Reason += "; " + reason
		}
	}
	slices.SortFunc(missing, func(a, b rundir.MissingIsland) int { return a.Island - b.Island })
	if len(missing) == p.Islands {
		return nil, fmt.Errorf("tuner: %s: no island has run: nothing to merge", dir)
	}
	res, err := search.MergeResults(su.prob, cks)
	if err != nil {
		return nil, err
	}
	front, err := scoring.BuildFront(ctx, su.scorer, su.prob, res.Archive, o.Objectives, o.MaxFront, su.norm, su.train, su.test)
	if err != nil {
		return nil, err
	}
	win, err := pick.ScoreWindows(ctx, su.scorer, o.pickChecks(), su.train, front)
	if err != nil {
		return nil, err
	}
	meta, err := runMeta(o, p.Provenance(), su.prob, res, front, su.refs, win, su.train, su.test)
	if err != nil {
		return nil, err
	}
	meta.MissingIslands = missing
	meta.WallSeconds = time.Since(start).Seconds()
	if err := rundir.Save(dir, meta, front); err != nil {
		return nil, err
	}
	return &Outcome{Meta: meta, Front: front}, nil
}

// joinShort joins at most 4 items, then counts the rest.
func joinShort(items []string) string {
	out := ""
	for k, s := range items {
		if k == 4 {
			return out + fmt.Sprintf(" and %d more", len(items)-4)
		}
		if k > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// frontHypervolume is the train hypervolume of a status's front in norm's
// box (0 for an empty front).
func frontHypervolume(norm scoring.Normalizer, front []search.Member) float64 {
	pts := make([][]float64, len(front))
	for i, m := range front {
		pts[i] = m.F
	}
	hv := norm.Hypervolume(pts)
	if math.IsNaN(hv) {
		return 0
	}
	return hv
}
