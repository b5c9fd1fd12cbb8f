package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Runner runs one Slurm command and returns its standard output. env holds
// extra NAME=value variables for this call only. An implementation returns a
// *CommandError when the command fails, so callers see the command line and
// its stderr. Tests replace it with a fake.
type Runner interface {
	Run(ctx context.Context, env []string, name string, args ...string) ([]byte, error)
}

// DefaultTimeout bounds one command when ExecRunner.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// ExecRunner runs commands with os/exec: in the process's environment plus
// Env (SLURM_CONF=... points it at a cluster), each bounded by Timeout and
// by the context.
type ExecRunner struct {
	Env     []string
	Timeout time.Duration
}

// Run runs name with args.
func (r ExecRunner) Run(ctx context.Context, env []string, name string, args ...string) ([]byte, error) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(append(os.Environ(), r.Env...), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if err != nil {
		ce := &CommandError{Argv: append([]string{name}, args...), Stderr: strings.TrimSpace(stderr.String()), Err: err}
		if ctx.Err() != nil {
			ce.Err = fmt.Errorf("%w after %v (%v)", ctx.Err(), timeout, err)
		}
		return stdout.Bytes(), ce
	}
	return stdout.Bytes(), nil
}

// CommandError is a Slurm command that failed: its command line, its
// stderr and the cause (exit status, timeout, command not found).
type CommandError struct {
	Argv   []string
	Stderr string
	Err    error
}

func (e *CommandError) Error() string {
	msg := fmt.Sprintf("slurm: %q failed: %v", strings.Join(e.Argv, " "), e.Err)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded) and
// errors.Is(err, exec.ErrNotFound) work.
func (e *CommandError) Unwrap() error { return e.Err }

// IsCommandError reports whether err is or wraps a *CommandError.
func IsCommandError(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce)
}
