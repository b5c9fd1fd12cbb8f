package horizon

import "time"

// Unix is the horizon, 2200-01-01T00:00:00Z in Unix seconds: no time that
// ecotune reads (a trace's submit or end, a cluster state's now, since or
// submit, what a daemon observes) may lie beyond it. It is far beyond any
// real log, and small enough that every sum the simulator and the policies
// form of such times, durations and counts stays far below 2^63:
// MaxSlots × (Unix + MaxDuration) < 2^59.
const Unix int64 = 7_258_118_400

// Text is the horizon as error messages name it.
const Text = "2200-01-01T00:00:00Z"

// The bounds that go with the horizon: the longest duration (a job's run,
// wait or requested time, a boot, a decision period) and the largest
// cluster. They are far beyond any real machine (Fugaku has 158,976 nodes
// and 7,630,848 cores).
const (
	MaxDuration int64 = 3_155_760_000 // 100 years of 365.25 days, in seconds
	MaxNodes          = 1 << 20       // nodes of a cluster
	MaxSlots          = 1 << 24       // slots (processors) of a cluster, and of one job
)

// Time is the horizon as a time.Time (UTC).
func Time() time.Time { return time.Unix(Unix, 0).UTC() }
