//go:build unix

package datasets

import (
	"errors"
	"syscall"
)

// processGone reports whether no process pid runs on this machine, and
// whether that could be told.
func processGone(pid int) (gone, known bool) {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM): // it runs, as another user
		return false, true
	case errors.Is(err, syscall.ESRCH):
		return true, true
	}
	return false, false
}
