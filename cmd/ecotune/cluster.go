package main

import (
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

func clusterCommand() *cli.Command {
	return &cli.Command{
		Name:        "cluster",
		Usage:       "write the cluster file a trace implies (node groups, power model)",
		UsageText:   "ecotune cluster TRACE|--from TRACE [-o cluster.yaml|cluster.json] [--model escs] [--json] [--force]",
		ArgsUsage:   "TRACE",
		Description: help.Text("cluster"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Aliases: []string{"trace", "t"}, Usage: "the trace: Parquet or any supported raw log"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the cluster file to write, .yaml/.yml or .json (default: print)"},
			&cli.StringFlag{Name: "model", Value: "escs", Usage: "built-in power model of every group, one of: " + strings.Join(sim.ModelNames(), ", ")},
			&cli.BoolFlag{Name: "json", Usage: "print JSON instead of YAML (without -o)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output"},
			&cli.StringFlag{Name: "format", Usage: "force the raw log format (swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne)"},
			&cli.BoolFlag{Name: "lenient", Usage: "skip unreadable records, counting them"},
		},
		Action: runCluster,
	}
}

func runCluster(c *cli.Context) error {
	from, err := clusterSource(c)
	if err != nil {
		return err
	}
	out := c.String("output")
	asJSON, err := clusterAsJSON(out, c.Bool("json"))
	if err != nil {
		return err
	}
	tr, err := openTrace(c, from)
	if err != nil {
		return err
	}
	cl, err := sim.ClusterSpec{Model: c.String("model")}.Resolve(tr.Meta)
	if err != nil {
		return err
	}
	text, err := sim.MarshalCluster(cl, asJSON, clusterHead(tr.Meta, from, c.String("model"), cl), clusterNotes(tr.Meta, cl))
	if err != nil {
		return err
	}
	if out == "" {
		_, err := c.App.Writer.Write(text)
		return err
	}
	if err := writeAtomic(out, text, c.Bool("force")); err != nil {
		return err
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "%s: %d nodes, %d slots in %d group(s)\n", out, cl.Nodes(), cl.Slots(), len(cl.Groups))
	}
	return nil
}

// clusterSource is the one trace, given as --from or as the argument.
func clusterSource(c *cli.Context) (string, error) {
	args, err := positionalArgs(c)
	if err != nil {
		return "", err
	}
	from := c.String("from")
	switch {
	case len(args) > 1 || (len(args) == 1 && from != ""):
		return "", usageErrorf(c, "one trace, as --from or as the argument")
	case len(args) == 1:
		return args[0], nil
	case from == "":
		return "", usageErrorf(c, "--from TRACE (or the trace as the argument) is required")
	}
	return from, nil
}

// clusterAsJSON reports whether the cluster file is written as JSON: with
// --json, or for an output named .json; an output must be named .json,
// .yaml or .yml.
func clusterAsJSON(out string, asJSON bool) (bool, error) {
	if out == "" {
		return asJSON, nil
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".json":
		return true, nil
	case ".yaml", ".yml":
		if asJSON {
			return false, fmt.Errorf("cluster: --json with a YAML output %s", out)
		}
		return false, nil
	}
	return false, fmt.Errorf("cluster: output %s: name it .yaml, .yml or .json", out)
}

// writeAtomic writes text to path through a temporary file renamed over
// it; an existing path only with force.
func writeAtomic(path string, text []byte, force bool) error {
	f, err := datasets.CreateAtomic(path, force)
	if err != nil {
		return err
	}
	if _, err := f.Write(text); err != nil {
		f.Abort()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// clusterHead is the comment at the top of a written cluster file.
func clusterHead(m datasets.Meta, from, model string, c sim.Cluster) string {
	source := "the trace header (MaxNodes, MaxProcs)"
	if len(m.Layout) > 0 {
		source = "the hosts the log names; slots per node as observed (most processors in use at once), nodes that ran no job are missing"
	}
	return fmt.Sprintf("ecotune cluster file for %s (trace %q, %s log): %d nodes, %d slots.\n"+
		"Inferred from %s.\n"+
		"Power model: %s, written out to edit. Use: ecotune simulate --cluster FILE.",
		filepath.Base(from), m.Name, m.Format, c.Nodes(), c.Slots(), source, model)
}

// clusterNotes names each group's hosts when the groups are the layout's.
func clusterNotes(m datasets.Meta, c sim.Cluster) []string {
	if len(m.Layout) != len(c.Groups) {
		return nil
	}
	notes := make([]string, len(m.Layout))
	for i, g := range m.Layout {
		notes[i] = fmt.Sprintf("%d hosts of %d slots: %s", g.Count, g.Slots, g.Hosts)
	}
	return notes
}
