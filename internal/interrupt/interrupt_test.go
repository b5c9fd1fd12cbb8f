package interrupt

import (
	"bytes"
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

// TestRunFirstSignalCancels sends the test process itself each signal
// while Run watches: the work's context is cancelled, the message printed,
// and the outcome an *Error with the shell's exit status.
func TestRunFirstSignalCancels(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{
		{syscall.SIGINT, 130, "SIGINT"},
		{syscall.SIGTERM, 143, "SIGTERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			saved := errors.New("saved what was finished")
			err := Run(context.Background(), &stderr, "work", "stopping", func(ctx context.Context) error {
				if !Watched(ctx) {
					t.Error("Run's context is not marked watched")
				}
				if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
					t.Fatal(err)
				}
				select {
				case <-ctx.Done():
					return saved
				case <-time.After(10 * time.Second):
					return errors.New("not cancelled within 10 s")
				}
			})
			var ie *Error
			if !errors.As(err, &ie) {
				t.Fatalf("Run returned %v, want an *Error", err)
			}
			if ie.ExitCode() != tc.code || ie.Signal != tc.sig || !errors.Is(err, saved) {
				t.Errorf("got signal %v, exit %d, err %v; want %v, %d, wrapping %v", ie.Signal, ie.ExitCode(), ie.Err, tc.sig, tc.code, saved)
			}
			if got := stderr.String(); got != "stopping\n" {
				t.Errorf("stderr %q, want the message once", got)
			}
		})
	}
}

// TestRunWithoutSignal returns the work's own error, untouched.
func TestRunWithoutSignal(t *testing.T) {
	want := errors.New("failed")
	for _, w := range []error{nil, want} {
		if err := Run(context.Background(), &bytes.Buffer{}, "work", "stopping", func(context.Context) error { return w }); err != w {
			t.Errorf("Run = %v, want %v", err, w)
		}
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    *Error
		want string
	}{
		{&Error{Signal: syscall.SIGINT}, "interrupted (SIGINT)"},
		{&Error{Signal: syscall.SIGTERM}, "interrupted (SIGTERM)"},
		{&Error{Signal: syscall.SIGTERM, Err: errors.New("tune: saved")}, "tune: saved"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%#v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestContextOutsideRun(t *testing.T) {
	ctx, stop := Context(context.Background())
	defer stop()
	if Watched(ctx) || ctx.Err() != nil {
		t.Fatal("a fresh context is watched or done")
	}
	err := Run(context.Background(), &bytes.Buffer{}, "work", "", func(ctx context.Context) error {
		same, stop := Context(ctx)
		defer stop()
		if same != ctx {
			t.Error("Context under Run is not Run's own")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
