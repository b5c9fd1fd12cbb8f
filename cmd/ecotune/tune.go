package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"os"
	"path/filepath"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/interrupt"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/progress"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

func tuneCommand() *cli.Command {
	return &cli.Command{
		Name:        "tune",
		Usage:       "NSGA-II / genetic-fuzzy search, holdout, front",
		UsageText:   "ecotune tune [TRACE | --trace T] [--policy hgfs] [--generations N] [--population N] [--islands N] [--reactive-island] [--no-schedule-rule] [--robust [--robust-windows K] [--robust-replicas R] [--robust-jitter S] [--robust-aggregate mean|worst|cvar] [--robust-alpha A] [--robust-thin F] [--robust-relative]] [--policies a,b,... [--seeds 1,2,...]] [--seed S] [--workers N] [--objectives a,b,c] [--constraint C]... [--preset P]... [--pick-windows K] [--pick-window-aggregate median|mean] [--pick-loads F,...] [--train 0.7 | --windows K] [--scheduler easy|fcfs|conservative] [--cluster FILE] [-o DIR] [--resume] [--force] [--json] [--slurm [--sbatch-args ARGS] [--dry-run]]",
		ArgsUsage:   traceArgsUsage,
		Description: help.Text("tune") + "\n\nDISTRIBUTED\n" + help.Text("tune-slurm") + "\n\nScores (objectives.All: name, default direction, unit, meaning):\n" + objectives.Help(),
		Flags: append(append(traceFlags(),
			&cli.StringFlag{Name: "policy", Aliases: []string{"p"}, Value: "hgfs", Usage: "policy to tune (see `ecotune policies`)"},
			&cli.IntFlag{Name: "generations", Aliases: []string{"g"}, Value: search.DefaultGenerations, Usage: "generations after the initial population"},
			&cli.IntFlag{Name: "population", Value: search.DefaultNSGA2().Population, Usage: "candidates per island"},
			&cli.IntFlag{Name: "islands", Value: search.DefaultNSGA2().Islands, Usage: "populations with ring migration"},
			&cli.BoolFlag{Name: "reactive-island", Usage: "the first island searches the policy's reactive core alone (hgfs: idle-timeout)"},
			&cli.StringFlag{Name: "policies", Usage: "tune each of these policies (comma-separated) on the same split and budget, in RUN_DIR/POLICY, and compare them (summary.json, policies.md)"},
			&cli.StringFlag{Name: "seeds", Usage: "with --policies: repeat the comparison with each of these seeds (comma-separated), in RUN_DIR/seed-S, and summarise the spread (seeds.json, seeds.md)"},
			&cli.BoolFlag{Name: "no-schedule-rule", Usage: "fix the policy's own scheduling rule off (hgfs: drain)"},
			&cli.BoolFlag{Name: "robust", Usage: "score candidates on several replays of the train split, aggregated (4 windows, 1 jittered replica each, cvar); off by default"},
			&cli.IntFlag{Name: "robust-windows", Usage: "robust: consecutive blocks of the train jobs (default 4)"},
			&cli.IntFlag{Name: "robust-replicas", Usage: "robust: jittered copies of each window (default 1)"},
			&cli.Int64Flag{Name: "robust-jitter", Usage: "robust: largest submit-time shift of a replica's jobs, in seconds (default 1800)"},
			&cli.StringFlag{Name: "robust-aggregate", Usage: "robust: mean, worst or cvar over the replays, per objective (default cvar)"},
			&cli.Float64Flag{Name: "robust-alpha", Usage: "robust: cvar's level, the fraction of worst replays averaged (default 0.5)"},
			&cli.Float64Flag{Name: "robust-thin", Usage: "robust: also replay each window thinned to this fraction of its jobs, in (0, 1) (default none)"},
			&cli.BoolFlag{Name: "robust-relative", Usage: "robust: aggregate qos_p90 relative to always-on's on each replay (default off)"},
			&cli.StringFlag{Name: "pick-loads", Usage: "relative presets (rel10) also meet their bound on the train split thinned to each fraction F of its jobs (seeded), against always-on there (default 0.9; 1: none)"},
			&cli.StringFlag{Name: "pick-window-aggregate", Value: pick.DefaultPickAggregate, Usage: "how relative presets' levels on the --pick-windows windows are aggregated before the bound: median or mean"},
			&cli.IntFlag{Name: "pick-windows", Usage: "relative presets (rel10) also meet their bound on each of K consecutive train windows, against always-on there (default 4; 1: the whole train split only)"},
			&cli.IntFlag{Name: "migration", Value: search.DefaultNSGA2().MigrationEvery, Usage: "generations between migrations"},
			&cli.IntFlag{Name: "evaluations", Usage: "stop after the generation that reaches this many distinct evaluations (0: no limit)"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.IntFlag{Name: "workers", Usage: "parallel simulations (default: GOMAXPROCS)"},
			&cli.StringFlag{Name: "objectives", Value: defaultObjectives(), Usage: "score names, comma-separated; min:NAME or max:NAME overrides the direction of the Scores list above: " + strings.Join(objectives.Names(), ", ")},
			&cli.StringSliceFlag{Name: "constraint", Usage: "bound on a score: NAME<=B, NAME>=B, NAME<=always_on+D (repeatable)"},
			&cli.StringSliceFlag{Name: "preset", Usage: "NAME=CONSTRAINT or knee, replacing the defaults (repeatable)"},
			&cli.Float64Flag{Name: "train", Value: 0.7, Usage: "chronological train fraction of the jobs (1: no test split)"},
			&cli.IntFlag{Name: "windows", Usage: "rolling-origin validation over K ≥ 2 windows of consecutive jobs instead of one --train split (0: off)"},
			schedulerFlag(""),
			&cli.StringFlag{Name: "cluster", Usage: "cluster file (default: from the trace header, ESCS power model)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "run directory (default runs/POLICY-TRACE-seedSEED)"},
			&cli.BoolFlag{Name: "resume", Usage: "continue the run in the run directory from its checkpoint"},
			&cli.BoolFlag{Name: "force", Usage: "write into a non-empty run directory"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (run.json) instead of the paths"},
			&cli.BoolFlag{Name: "no-report", Usage: "do not write RUN_DIR/report (write it later with `ecotune report RUN_DIR`)"},
		), tuneSlurmFlags()...),
		Subcommands: tuneSubcommands(),
		// urfave/cli's template for commands with subcommands stops after
		// the description under `ecotune help tune` (it asks a Command for
		// categories only an App has): the command template plus the
		// subcommands.
		CustomHelpTemplate: cli.CommandHelpTemplate + subcommandsHelp,
		Action:             runTune,
	}
}

func runTune(c *cli.Context) error {
	o, t, err := tuneOptions(c)
	if err != nil {
		return err
	}
	if c.Bool("slurm") || slurmOnlyFlag(c) != "" {
		return runTuneSlurm(c, o, t)
	}
	if !c.Bool("quiet") && !c.Bool("json") {
		o.Monitor = progress.New(c.App.ErrWriter, term.IsTerminal(int(os.Stderr.Fd())))
	}
	ctx, stop := interrupt.Context(c.Context)
	defer stop()
	switch {
	case c.Int("windows") != 0:
		return runWindows(ctx, c, o, t)
	case c.IsSet("seeds"):
		return runSeeds(ctx, c, o, t)
	case c.IsSet("policies"):
		return runPolicies(ctx, c, o, t)
	}
	return runSingle(ctx, c, o, t)
}

// runSingle is the plain `tune`: one search, its report and summary.
func runSingle(ctx context.Context, c *cli.Context, o tuner.Options, t run.Target) error {
	out, err := tuner.Tune(ctx, o, t)
	if err != nil {
		return err
	}
	if out.Interrupted { // the checkpoint holds it
		fmt.Fprintf(c.App.ErrWriter, "interrupted after generation %d (%d evaluations kept); continue with: ecotune tune ... -o %s --resume\n", out.Meta.Generations, out.Meta.Evaluations, t.Dir)
		if c.Bool("json") {
			return json.NewEncoder(c.App.Writer).Encode(out.Meta)
		}
		return nil
	}
	html := ""
	if !c.Bool("no-report") {
		// Force: a resumed run rewrites the report of its earlier part.
		if html, err = reports.Write(t.Dir, reports.Options{Force: true}); err != nil {
			return fmt.Errorf("tune: the run is in %s, but its report failed: %w", t.Dir, err)
		}
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(out.Meta)
	}
	warnInfeasible(c, out.Meta)
	if !c.Bool("quiet") && out.Front != nil {
		// The summary goes to stderr beside the progress bar; stdout keeps
		// the paths scripts read.
		if err := reports.WriteTuneSummary(c.App.ErrWriter, t.Dir, out.Meta, out.Front, html); err != nil {
			return err
		}
	}
	return printPaths(c, t.Dir, html)
}

// printPaths prints the run directory and, if one was written, the
// report's path: the lines scripts read on stdout.
func printPaths(c *cli.Context, dir, html string) error {
	if _, err := fmt.Fprintln(c.App.Writer, dir); err != nil {
		return err
	}
	if html == "" {
		return nil
	}
	_, err := fmt.Fprintln(c.App.Writer, html)
	return err
}

// warnInfeasible tells which presets no solution meets, offering the
// relative form.
func warnInfeasible(c *cli.Context, m *tuner.RunMeta) {
	for _, p := range m.Presets {
		if p.Feasible {
			continue
		}
		ao := m.References[scoring.AlwaysOn].Train
		hint := fmt.Sprintf(" Relative form: --preset '%s=qos_p90<=always_on+%g' (or the default rel10)", p.Name, p.Bound)
		if p.Relative {
			hint = ""
		}
		fmt.Fprintf(c.App.ErrWriter, "preset %s: no solution meets the bound %g on the train split (always-on's qos_p90 there is %.4g); row %d violates it least.%s\n",
			p.Name, p.Resolved, ao.QoSP90, p.Row, hint)
	}
}

// tuneOptions turns the flags into tuner.Options and the run's target.
// The checks run in a fixed order, cheapest first: the modes' exclusions,
// the search's limits (before the trace is read), then what the trace
// and the files named bring.
func tuneOptions(c *cli.Context) (tuner.Options, run.Target, error) {
	var o tuner.Options
	var t run.Target
	if err := checkTuneModes(c); err != nil {
		return o, t, err
	}
	o.Settings, o.Method = searchFlags(c)
	if err := search.CheckLimits(o.Settings, o.Method); err != nil { // before reading the trace
		return o, t, fmt.Errorf("tune: %w", err)
	}
	tr, err := loadTrace(c)
	if err != nil {
		return o, t, err
	}
	if err := scoringFlags(c, &o); err != nil {
		return o, t, err
	}
	o.Policy = c.String("policy")
	o.Trace = tr
	if t, err = tuneTarget(c, o); err != nil {
		return o, t, err
	}
	if c.Int("windows") == 0 {
		o.Split = run.Holdout(c.Float64("train"))
	}
	o.Sim = sim.Options{Scheduler: c.String("scheduler")}
	o.ReactiveIsland = c.Bool("reactive-island")
	o.NoScheduleRule = c.Bool("no-schedule-rule")
	if err := pickFlags(c, &o); err != nil {
		return o, t, err
	}
	if o.Robust, err = robustOptions(c); err != nil {
		return o, t, err
	}
	return o, t, nil
}

// checkTuneModes refuses flags that exclude each other: the modes of tune
// (single, --windows, --policies, --seeds, --slurm) and their companions.
func checkTuneModes(c *cli.Context) error {
	switch w := c.Int("windows"); {
	case w < 0 || w == 1:
		return fmt.Errorf("tune: --windows %d: rolling-origin validation needs at least 2 windows (0 turns it off; one window is the plain --train holdout)", w)
	case c.IsSet("policies") && (c.IsSet("policy") || w != 0):
		return fmt.Errorf("tune: --policies tunes each policy it names on one --train split: leave out --policy and --windows")
	case c.IsSet("seeds") && !c.IsSet("policies"):
		return fmt.Errorf("tune: --seeds repeats a --policies comparison once per seed: give --policies too (or --seed for one run)")
	case c.IsSet("seeds") && c.IsSet("seed"):
		return fmt.Errorf("tune: --seeds and --seed exclude each other: --seeds gives every seed of the comparison")
	case c.IsSet("seeds") && (c.Bool("slurm") || slurmOnlyFlag(c) != ""):
		return fmt.Errorf("tune: --seeds runs its comparisons in this process: leave out --slurm")
	case w >= 2 && c.IsSet("train"):
		return fmt.Errorf("tune: --train and --windows %d exclude each other: the windows fix the split (each trains on one of %d equal blocks of jobs and tests on the next)", w, w+1)
	}
	return nil
}

// searchFlags are the search's settings and method from the flags.
func searchFlags(c *cli.Context) (search.Settings, search.NSGA2) {
	return search.Settings{
			Generations: c.Int("generations"),
			Evaluations: c.Int("evaluations"),
			Seed:        c.Int64("seed"),
			Workers:     c.Int("workers"),
		}, search.NSGA2{
			Population:     c.Int("population"),
			Islands:        c.Int("islands"),
			MigrationEvery: c.Int("migration"),
		}
}

// scoringFlags fills o's objectives, constraints, presets and cluster
// from the flags, in that order.
func scoringFlags(c *cli.Context, o *tuner.Options) error {
	objs, err := scoring.ParseObjectives(c.String("objectives"))
	if err != nil {
		return err
	}
	for _, s := range c.StringSlice("constraint") {
		k, err := scoring.ParseConstraint(s)
		if err != nil {
			return err
		}
		o.Constraints = append(o.Constraints, k)
	}
	for _, s := range c.StringSlice("preset") {
		p, err := pick.ParsePreset(s)
		if err != nil {
			return err
		}
		o.Presets = append(o.Presets, p)
	}
	if path := c.String("cluster"); path != "" {
		cl, err := sim.LoadCluster(path)
		if err != nil {
			return err
		}
		o.Cluster = &cl
	}
	o.Objectives = objs
	return nil
}

// tuneTarget is where the run goes (-o, or a name made of the policy, the
// trace and the seed under runs/) and its provenance.
func tuneTarget(c *cli.Context, o tuner.Options) (run.Target, error) {
	var t run.Target
	t.Provenance.Trace = traceName(c, o.Trace)
	if path := c.String("trace"); path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return t, fmt.Errorf("tune: trace %s: %w", path, err)
		}
		t.Provenance.TraceFile, t.Provenance.TraceFormat, t.Provenance.TraceLenient = abs, c.String("format"), c.Bool("lenient")
	}
	t.Dir = c.String("output")
	if t.Dir == "" {
		t.Dir = defaultRunDir(c, o, t.Provenance.Trace)
	}
	t.Resume, t.Force = c.Bool("resume"), c.Bool("force")
	t.Provenance.Command = os.Args
	t.Provenance.Version = version
	return t, nil
}

// defaultRunDir is runs/POLICY-TRACE-seedS (POLICY "policies" with
// --policies; -seedsA-B-... with --seeds).
func defaultRunDir(c *cli.Context, o tuner.Options, trace string) string {
	name := o.Policy
	if c.IsSet("policies") {
		name = "policies"
	}
	if c.IsSet("seeds") {
		return filepath.Join("runs", fmt.Sprintf("%s-%s-seeds%s", name, trace, strings.ReplaceAll(strings.ReplaceAll(c.String("seeds"), ",", "-"), " ", "")))
	}
	return filepath.Join("runs", fmt.Sprintf("%s-%s-seed%d", name, trace, o.Settings.Seed))
}

// pickFlags fills o's pick-window and load checks from the flags.
func pickFlags(c *cli.Context, o *tuner.Options) error {
	if o.PickWindows = c.Int("pick-windows"); o.PickWindows < 0 {
		return fmt.Errorf("tune: --pick-windows %d: need at least 1", o.PickWindows)
	}
	var err error
	if o.PickLoads, err = pickLoads(c); err != nil {
		return err
	}
	if o.PickAggregate = c.String("pick-window-aggregate"); pick.ValidPickAggregate(o.PickAggregate) != nil {
		return fmt.Errorf("tune: --pick-window-aggregate %q: want median or mean", o.PickAggregate)
	}
	return nil
}

// robustOptions are the --robust flags' settings: none set, or
// --robust=false alone, is the plain replay; --robust or any --robust-*
// flag starts from scoring.DefaultRobust and the flags given replace its
// parts.
func robustOptions(c *cli.Context) (scoring.Robust, error) {
	if on, err := robustRequested(c); err != nil || !on {
		return scoring.Robust{}, err
	}
	r := scoring.DefaultRobust()
	if err := robustParts(c, &r); err != nil {
		return r, err
	}
	r, err := scoring.NormalizeRobust(r)
	if err != nil {
		return r, fmt.Errorf("tune: %w", err)
	}
	return r, nil
}

// robustRequested reports whether --robust or a --robust-* flag asks for
// robust scoring; --robust=false beside --robust-* flags is an error.
func robustRequested(c *cli.Context) (bool, error) {
	parts := false
	for _, n := range []string{"robust-windows", "robust-replicas", "robust-jitter", "robust-aggregate", "robust-alpha", "robust-thin", "robust-relative"} {
		parts = parts || c.IsSet(n)
	}
	if c.IsSet("robust") && !c.Bool("robust") {
		if parts {
			return false, fmt.Errorf("tune: --robust=false with --robust-* flags: leave out --robust=false")
		}
		return false, nil
	}
	return parts || c.IsSet("robust"), nil
}

// robustParts replaces r's parts that --robust-* flags give. Leaving out
// the jitter with --robust-replicas 0, or the level with an aggregate
// other than cvar, turns those off.
func robustParts(c *cli.Context, r *scoring.Robust) error {
	if c.IsSet("robust-windows") {
		if r.Windows = c.Int("robust-windows"); r.Windows < 1 {
			return fmt.Errorf("tune: --robust-windows %d: need at least 1", r.Windows)
		}
	}
	if c.IsSet("robust-replicas") {
		r.Replicas = c.Int("robust-replicas")
		if r.Replicas == 0 && !c.IsSet("robust-jitter") {
			r.Jitter = 0
		}
	}
	if c.IsSet("robust-jitter") {
		r.Jitter = c.Int64("robust-jitter")
	}
	if c.IsSet("robust-aggregate") {
		r.Aggregate = c.String("robust-aggregate")
		if r.Aggregate != scoring.AggregateCVaR && !c.IsSet("robust-alpha") {
			r.Alpha = 0
		}
	}
	if c.IsSet("robust-alpha") {
		r.Alpha = c.Float64("robust-alpha")
	}
	r.Thin, r.Relative = c.Float64("robust-thin"), c.Bool("robust-relative")
	return nil
}

// traceName is the trace's short name: the file's base name without
// extensions, or the embedded trace's name.
func traceName(c *cli.Context, tr *datasets.Trace) string {
	name := tr.Meta.Name
	if p := c.String("trace"); p != "" {
		name = filepath.Base(p)
	}
	for _, ext := range []string{".gz", ".swf", ".parquet", ".gwf", ".log", ".txt"} {
		name = strings.TrimSuffix(name, ext)
	}
	if name == "" {
		name = "trace"
	}
	return name
}

// defaultObjectives is the --objectives default: scoring.DefaultObjectives'
// names, comma-separated.
func defaultObjectives() string {
	var names []string
	for _, o := range scoring.DefaultObjectives() {
		names = append(names, o.Name)
	}
	return strings.Join(names, ",")
}

// subcommandsHelp lists a command's subcommands after its options.
const subcommandsHelp = `{{if .VisibleCommands}}
SUBCOMMANDS:{{range .VisibleCommands}}
   {{join .Names ", "}}{{"\t"}}{{.Usage}}{{end}}
{{end}}`

// pickLoads reads --pick-loads: nil when not given (the tuner's default).
func pickLoads(c *cli.Context) ([]float64, error) {
	if !c.IsSet("pick-loads") {
		return nil, nil
	}
	loads, err := pick.ParsePickLoads(c.String("pick-loads"))
	if err != nil {
		return nil, fmt.Errorf("tune: --pick-loads %q: %w", c.String("pick-loads"), err)
	}
	return loads, nil
}
