// Command ecotune learns energy-saving power policies for HPC clusters from
// the cluster's own job logs. Run "ecotune help" for the commands.
package main

import (
	"os"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func newApp() *cli.App {
	var stopProfile func() error
	app := &cli.App{
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
			serveCommand(),
		},
		EnableBashCompletion: true,
		// An unknown command is a usage error, not a help page and exit 0.
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usageErrorf(nil, "unknown command %q", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error { return usageErrorf(nil, "%v", err) },
		// Errors carry their exit code to runMain, which returns it: urfave/cli
		// would call os.Exit itself.
		ExitErrHandler: func(*cli.Context, error) {},
	}
	strictArgs(app.Commands)
	interruptCommands(app.Commands)
	tidyHelp(app.Commands)
	return app
}

func main() {
	os.Exit(runMain(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
