package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

const clusterHelp = `Writes the cluster file a trace implies, for you to edit and pass to
"simulate --cluster" (the format is in README.md, "Cluster files").

Logs that name the hosts jobs ran on (Slurm sacct NodeList, PBS exec_host,
SGE/UGE hostname) give one node group per number of slots per node, as
observed in the log (the most processors in use on the node at once);
nodes that ran no job are missing. Other traces give the machine of their
header (MaxNodes × MaxProcs/MaxNodes), as simulate uses it. Every group
gets the power model --model (default escs: standby 2 W, idle 150 W,
+80 W per busy slot, boot 555 s and 13.71 Wh, shutdown 480 s and
10.79 Wh) written out as numbers; the YAML names each group's hosts in a
comment.

TRACE is a Parquet trace or any raw log, given as --from (or --trace) or
as the argument. -o FILE writes FILE (YAML, or JSON when it ends in .json)
atomically, replacing it only with --force; without -o the file is
printed (YAML, or JSON with --json).

To split the machine into partitions (independent queues, each with its
own nodes and policy), add a partitions list to the file: each has a
name, the node groups it owns, the queues it takes (default its name;
SWF field 15 or 16, Slurm's Partition, the PBS/SGE/LSF/OAR queue) and
optionally default: true (takes the jobs no partition lists). Partitions
sharing node groups are refused. See README.md, "Cluster files", and
docs/clusters/sdsc-par-1996-partitions.yaml.

Examples:
  ecotune cluster --from sacct.log
  ecotune cluster --from site.parquet -o cluster.yaml
  ecotune simulate --trace site.parquet --cluster cluster.yaml --policy idle-timeout`

func clusterCommand() *cli.Command {
	return &cli.Command{
		Name:        "cluster",
		Usage:       "write the cluster file a trace implies (node groups, power model)",
		UsageText:   "ecotune cluster TRACE|--from TRACE [-o cluster.yaml|cluster.json] [--model escs] [--json] [--force]",
		ArgsUsage:   "TRACE",
		Description: clusterHelp,
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
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	from := c.String("from")
	switch {
	case len(args) > 1 || (len(args) == 1 && from != ""):
		return usageErrorf(c, "one trace, as --from or as the argument")
	case len(args) == 1:
		from = args[0]
	case from == "":
		return usageErrorf(c, "--from TRACE (or the trace as the argument) is required")
	}
	out := c.String("output")
	asJSON := c.Bool("json")
	if out != "" {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".json":
			asJSON = true
		case ".yaml", ".yml":
			if asJSON {
				return fmt.Errorf("cluster: --json with a YAML output %s", out)
			}
		default:
			return fmt.Errorf("cluster: output %s: name it .yaml, .yml or .json", out)
		}
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
	f, err := datasets.CreateAtomic(out, c.Bool("force"))
	if err != nil {
		return err
	}
	if _, err := f.Write(text); err != nil {
		f.Abort()
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "%s: %d nodes, %d slots in %d group(s)\n", out, cl.Nodes(), cl.Slots(), len(cl.Groups))
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
