// Command ecotune learns energy-saving power policies for HPC clusters from
// the cluster's own job logs. Run "ecotune help" for the commands.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func newApp() *cli.App {
	var stopProfile func() error
	return &cli.App{
		Name:    "ecotune",
		Usage:   "learn energy-saving power policies for HPC clusters from their job logs",
		Version: version,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output", EnvVars: []string{"ECOTUNE_QUIET"}},
			cpuProfileFlag,
		},
		Before: func(c *cli.Context) (err error) {
			stopProfile, err = startProfile(c)
			return err
		},
		After: func(*cli.Context) error {
			if stopProfile == nil {
				return nil
			}
			return stopProfile()
		},
		Commands: []*cli.Command{
			importCommand(),
			inspectCommand(),
			clusterCommand(),
			splitCommand(),
			synthCommand(),
			simulateCommand(),
			policiesCommand(),
			decideCommand(),
			tuneCommand(),
			compareCommand(),
			reportCommand(),
			exportCommand(),
			daemonCommand(),
		},
		EnableBashCompletion: true,
	}
}

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "ecotune:", err)
		os.Exit(1)
	}
}
