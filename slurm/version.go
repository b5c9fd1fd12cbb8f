package slurm

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Slurm release, such as 22.05.8.
type Version struct {
	Major, Minor, Micro int
}

// ParseVersion reads the output of `scontrol version` ("slurm 22.05.8";
// Debian's build prints "slurm-wlm 22.05.8") or a bare "22.05.8". Suffixes
// after the micro number ("23.11.0-0rc1") are ignored.
func ParseVersion(s string) (Version, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return Version{}, fmt.Errorf("slurm version: empty output")
	}
	last := fields[len(fields)-1]
	parts := strings.SplitN(last, ".", 3)
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("slurm version: %q is not MAJOR.MINOR[.MICRO]", strings.TrimSpace(s))
	}
	var v Version
	var err error
	if v.Major, err = leadingInt(parts[0]); err != nil {
		return Version{}, fmt.Errorf("slurm version %q: major: %v", last, err)
	}
	if v.Minor, err = leadingInt(parts[1]); err != nil {
		return Version{}, fmt.Errorf("slurm version %q: minor: %v", last, err)
	}
	if len(parts) == 3 {
		if v.Micro, err = leadingInt(parts[2]); err != nil {
			return Version{}, fmt.Errorf("slurm version %q: micro: %v", last, err)
		}
	}
	return v, nil
}

// leadingInt reads the digits at the start of s (at least one, at most 9).
func leadingInt(s string) (int, error) {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%q does not start with a number", s)
	}
	return strconv.Atoi(s[:i])
}

// String writes the version as Slurm does: 22.05.8.
func (v Version) String() string { return fmt.Sprintf("%d.%02d.%d", v.Major, v.Minor, v.Micro) }

// AtLeast reports whether v is major.minor or later.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// HasJSON reports whether sinfo and squeue accept --json: 21.08 and later
// (SchedMD/slurm 2f0423e8e1, "sinfo - Add --yaml and --json output", first
// tagged slurm-21-08-0-0rc2).
func (v Version) HasJSON() bool { return v.AtLeast(21, 8) }

// HasPowerCommand reports whether scontrol has the `power down [asap] NODES`
// and `power up NODES` commands: 24.05 and later (SchedMD/slurm commit
// 33052f5c56 of 2024-03-11 added them, first tagged slurm-24-05-0-0rc1).
// Earlier versions, 22.05 among them, have only `scontrol update
// nodename=NODES state=power_down|power_down_asap|power_up`.
func (v Version) HasPowerCommand() bool { return v.AtLeast(24, 5) }
