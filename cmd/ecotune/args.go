package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// exitUsage is the exit code of a command line the program cannot use
// (an unknown flag, an extra argument, a missing required flag), as the
// BSD sysexits and most Unix tools have it; other failures exit 1.
const exitUsage = 2

// traceArgsUsage is the ArgsUsage of the commands whose one optional
// positional argument is the trace (the same as --trace).
const traceArgsUsage = "[TRACE]"

// usageError is a command line the program cannot use: exit code 2, and
// the message ends with the command's usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ExitCode makes usageError a cli.ExitCoder.
func (e *usageError) ExitCode() int { return exitUsage }

// usageErrorf is a usageError naming the command c and its usage line.
func usageErrorf(c *cli.Context, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if c == nil || c.Command == nil || c.Command.Name == "" {
		return &usageError{msg + "\n(run \"ecotune help\" for the commands)"}
	}
	usage := c.Command.UsageText
	if usage == "" {
		usage = "ecotune " + c.Command.FullName() + " [options] " + c.Command.ArgsUsage
	}
	return &usageError{fmt.Sprintf("%s: %s\nusage: %s\n(run \"ecotune help %s\" for the options and examples)",
		c.Command.FullName(), msg, strings.TrimSpace(usage), c.Command.FullName())}
}

// runMain runs the command line args (args[0] is the program name) with its
// output on stdout and stderr and returns the exit code: 0, 1 on failure,
// 2 on a command line it cannot use (main exits with it; tests read it).
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp()
	app.Reader, app.Writer, app.ErrWriter = stdin, stdout, stderr
	return exitCode(app.Run(args), stderr)
}

// exitCode prints err (if any) on stderr and returns its exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "ecotune:", err)
	var ec cli.ExitCoder
	if errors.As(err, &ec) && ec.ExitCode() != 0 {
		return ec.ExitCode()
	}
	return 1
}

// strictArgs makes every command (and subcommand) refuse what it cannot
// use, instead of urfave/cli's silent drop: a command without ArgsUsage
// takes no positional argument; a command with ArgsUsage "[TRACE]" takes
// the trace as its one optional argument (the same as --trace) and the
// flags that follow it; parse errors become usage errors (exit 2). Other
// commands read their arguments with positionalArgs.
func strictArgs(cmds []*cli.Command) {
	for _, cmd := range cmds {
		strictArgs(cmd.Subcommands)
		if cmd.OnUsageError == nil {
			cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
				return usageErrorf(c, "%v", err)
			}
		}
		action := cmd.Action
		if action == nil {
			continue
		}
		switch cmd.ArgsUsage {
		case "":
			cmd.Action = func(c *cli.Context) error {
				if c.Args().Present() {
					return usageErrorf(c, "takes no arguments, got %q (flags go before any argument)", c.Args().Slice())
				}
				return action(c)
			}
		case traceArgsUsage:
			cmd.Action = func(c *cli.Context) error {
				if err := bindTraceArg(c); err != nil {
					return err
				}
				return action(c)
			}
		}
	}
}

// bindTraceArg applies the flags that follow the positional arguments and
// sets --trace from the one positional argument, if any.
func bindTraceArg(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	switch {
	case len(args) > 1:
		return usageErrorf(c, "one trace at most, got %d arguments %q", len(args), args)
	case len(args) == 0:
		return nil
	}
	if c.IsSet("trace") && c.String("trace") != args[0] && c.String("trace") != os.Getenv("ECOTUNE_TRACE") {
		return usageErrorf(c, "two traces: --trace %s and the argument %s; give one", c.String("trace"), args[0])
	}
	return c.Set("trace", args[0])
}

// backticked is text between backticks in a flag's usage: urfave/cli
// takes it for the value's placeholder, so only single words may be.
var backticked = regexp.MustCompile("`([^`]*)`")

// defaultNote is a "(default ...)" remark written into a flag's usage.
var defaultNote = regexp.MustCompile(`\s*\(default:? ([^()]*(?:\([^()]*\)[^()]*)*)\)`)

// tidyHelp makes every flag's help show one default and no misplaced
// placeholder: a "(default X)" remark in the usage becomes the flag's
// default text (urfave/cli would print its own beside it), bool flags
// print no "(default: false)", and backticked text with spaces (a
// command, not a placeholder) is quoted instead.
func tidyHelp(cmds []*cli.Command) {
	for _, cmd := range cmds {
		tidyHelp(cmd.Subcommands)
		for _, f := range cmd.Flags {
			tidyFlag(f)
		}
	}
}

func tidyFlag(f cli.Flag) {
	var usage, defaultText *string
	switch f := f.(type) {
	case *cli.BoolFlag:
		f.DisableDefaultText = true
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.StringFlag:
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.IntFlag:
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.Int64Flag:
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.Uint64Flag:
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.Float64Flag:
		usage, defaultText = &f.Usage, &f.DefaultText
	case *cli.StringSliceFlag:
		usage, defaultText = &f.Usage, &f.DefaultText
	default:
		return
	}
	*usage = backticked.ReplaceAllStringFunc(*usage, func(s string) string {
		if strings.ContainsAny(s, " \t") {
			return `"` + strings.Trim(s, "`") + `"`
		}
		return s
	})
	if m := defaultNote.FindStringSubmatchIndex(*usage); m != nil {
		if *defaultText == "" {
			*defaultText = (*usage)[m[2]:m[3]]
		}
		*usage = (*usage)[:m[0]] + (*usage)[m[1]:]
	}
}
