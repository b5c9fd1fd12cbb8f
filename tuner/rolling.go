package tuner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/summary"
)

// WindowsOutcome is what TuneWindows did.
type WindowsOutcome struct {
	Summary *summary.WindowsSummary
	// Interrupted: ctx was cancelled in window Window (1-based), after its
	// generation Generations (-1: before the window started).
	Interrupted bool
	Window      int
	Generations int
}

// TuneWindows is rolling-origin validation: it cuts o.Trace's jobs
// (in submit order) into windows+1 consecutive blocks B0 … BK of equal
// job counts (to one job) and tunes window k = 1 … K on B(k−1), testing
// on Bk, so the origin rolls forward with train windows of fixed size.
// Each window is one Tune run in t.Dir/window-k (o.Split is not used),
// with o's settings and the same seed: window k is what `ecotune tune`
// on that split alone gives. It then writes t.Dir/windows.json and
// windows.csv (summary.WindowsSummary).
//
// Cancelling ctx stops the current window after its current generation;
// finished windows stay as they are and the summary lists them, marked
// interrupted. With t.Resume, finished windows are kept, the interrupted
// one resumes from its checkpoint and later ones run: the summary is then
// byte for byte an uninterrupted run's.
func TuneWindows(ctx context.Context, o Options, t rundir.Target, windows int) (*WindowsOutcome, error) {
	if windows < 2 {
		return nil, fmt.Errorf("tuner: %d windows: rolling-origin validation needs at least 2 (one window is the plain holdout)", windows)
	}
	if o.Trace == nil {
		return nil, errors.New("tuner: no trace")
	}
	if !o.Split.IsZero() {
		return nil, errors.New("tuner: TuneWindows cuts the trace itself; Options.Split must be zero")
	}
	if t.Dir == "" {
		return nil, errors.New("tuner: no run directory")
	}
	bounds, err := windowBounds(len(o.Trace.Jobs), windows)
	if err != nil {
		return nil, err
	}
	if err := t.Start(KindWindows); err != nil {
		return nil, err
	}
	out := &WindowsOutcome{}
	done := 0
	for k := 1; k <= windows; k++ {
		if ctx.Err() != nil {
			out.Interrupted, out.Window, out.Generations = true, k, -1
			break
		}
		run, err := tuneWindow(ctx, o, t, k, windows, bounds)
		if err != nil {
			return nil, fmt.Errorf("tuner: window %d/%d: %w", k, windows, err)
		}
		if run != nil && run.Interrupted {
			out.Interrupted, out.Window, out.Generations = true, k, run.Meta.Generations
			break
		}
		done = k
	}
	head := summary.WindowsSummary{Policy: o.Policy, Trace: t.Provenance.Trace, TraceSHA256: traceDigest(o.Trace),
		Seed: o.Settings.Seed, Windows: windows, Interrupted: out.Interrupted}
	s, err := summary.ReadWindows(t.Dir, head, o.Trace.Jobs, bounds[:done+2])
	if err != nil {
		return nil, err
	}
	out.Summary = s
	return out, summary.WriteWindows(t.Dir, s)
}

// windowBounds are the K+2 job indexes that cut n jobs into K+1 blocks:
// block i is [b[i], b[i+1]), b[i] = ⌊i·n/(K+1)⌋.
func windowBounds(n, windows int) ([]int, error) {
	if n < windows+1 {
		return nil, fmt.Errorf("tuner: %d jobs cannot fill the %d blocks of %d windows", n, windows+1, windows)
	}
	return scoring.WindowBounds(n, windows+1), nil
}

// tuneWindow runs window k, or keeps it when resuming and it finished;
// it returns nil for a kept window.
func tuneWindow(ctx context.Context, o Options, t rundir.Target, k, windows int, bounds []int) (*Outcome, error) {
	wo := o
	wo.Split = rundir.ByJobs(bounds[k-1], bounds[k], bounds[k+1])
	wt, err := t.Beneath(summary.WindowDir(k))
	if err != nil {
		return nil, err
	}
	wo.Settings.Recorders = slices.Clip(o.Settings.Recorders)
	if t.Resume {
		resume, meta, _, err := resumeRun(wo, wt.Dir)
		if err != nil {
			return nil, err
		}
		if meta != nil {
			note(o.Monitor, "window %d/%d: finished, kept\n", k, windows)
			return nil, nil
		}
		wt.Resume, wt.Force = resume, true
	}
	j := wo.Split.Jobs
	note(o.Monitor, "window %d/%d: train jobs %d:%d, test jobs %d:%d\n", k, windows, j.From, j.Cut, j.Cut, j.To)
	return Tune(ctx, wo, wt)
}

// note tells the monitor, if any, a line between the windows.
func note(m Monitor, format string, args ...any) {
	if m != nil {
		m.Note(fmt.Sprintf(format, args...))
	}
}
