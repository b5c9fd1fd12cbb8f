package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// runWindows is `tune --windows K`: rolling-origin validation.
func runWindows(ctx context.Context, c *cli.Context, o tuner.Options, t run.Target) error {
	out, err := tuner.TuneWindows(ctx, o, t, c.Int("windows"))
	if err != nil {
		return err
	}
	if !c.Bool("no-report") {
		for _, w := range out.Summary.PerWindow {
			// Through the run directory: a window-K planted as a link is
			// refused, not followed.
			if _, err := reports.WriteSub(t.Dir, w.Dir, reports.Options{Force: true}); err != nil {
				return fmt.Errorf("tune: window %d is in %s, but its report failed: %w", w.K, filepath.Join(t.Dir, w.Dir), err)
			}
		}
	}
	if out.Interrupted {
		where := fmt.Sprintf("in window %d/%d after generation %d", out.Window, out.Summary.Windows, out.Generations)
		if out.Generations < 0 {
			where = fmt.Sprintf("before window %d/%d", out.Window, out.Summary.Windows)
		}
		fmt.Fprintf(c.App.ErrWriter, "interrupted %s; continue with: ecotune tune ... --windows %d -o %s --resume\n", where, out.Summary.Windows, t.Dir)
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(out.Summary)
	}
	if err := reports.WriteWindowsText(c.App.Writer, out.Summary); err != nil {
		return err
	}
	_, err = fmt.Fprintln(c.App.Writer, t.Dir)
	return err
}
