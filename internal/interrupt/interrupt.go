package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// An Error is the outcome of work a signal stopped: Err is the work's own
// error (nil when it stopped cleanly), ExitCode 128 + the signal's number.
type Error struct {
	Signal syscall.Signal
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("interrupted (%s)", SignalName(e.Signal))
}

func (e *Error) Unwrap() error { return e.Err }

// ExitCode is the process's exit status: 128 + the signal's number.
func (e *Error) ExitCode() int { return 128 + int(e.Signal) }

// SignalName names SIGTERM as such and any other signal as SIGINT (the
// two that Run watches).
func SignalName(sig syscall.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// watchedKey marks a context that Run watches.
type watchedKey struct{}

// Watched reports whether Run watches ctx (or a context it derives from).
func Watched(ctx context.Context) bool { return ctx.Value(watchedKey{}) != nil }

// Run runs work with a context that the first SIGINT or SIGTERM cancels,
// printing msg on stderr; work is then to return as soon as it has saved
// what it finished, and Run returns an *Error carrying work's error. With
// msg "" the first signal ends the process at once, with the exit status
// of an *Error; so does a second signal in any case, also one that arrives
// while work is already stopping. name names the work in that last
// message.
func Run(parent context.Context, stderr io.Writer, name, msg string, work func(context.Context) error) error {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(context.WithValue(parent, watchedKey{}, true))
	defer cancel()
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var first atomic.Int32 // the first signal's number, 0 before it
	got := func(s os.Signal) {
		n, _ := s.(syscall.Signal)
		if first.CompareAndSwap(0, int32(n)) && msg != "" {
			fmt.Fprintln(stderr, msg)
			cancel()
			return
		}
		fmt.Fprintf(stderr, "ecotune: %s: interrupted (%s): exiting at once\n", name, SignalName(n))
		os.Exit(128 + int(first.Load()))
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sig:
				got(s)
			case <-done:
				return
			}
		}
	}()
	err := work(ctx)
	close(done)
	signal.Stop(sig)
	select {
	case s := <-sig: // arrived while work was ending
		got(s)
	default:
	}
	if n := first.Load(); n != 0 {
		return &Error{Signal: syscall.Signal(n), Err: err}
	}
	return err
}

// Context returns ctx and a no-op stop when Run already watches ctx;
// otherwise (work called directly, not through Run) a context that the
// first SIGINT or SIGTERM cancels, and the function that stops watching.
func Context(ctx context.Context) (context.Context, func()) {
	if Watched(ctx) {
		return ctx, func() {}
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
