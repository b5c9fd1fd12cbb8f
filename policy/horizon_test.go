package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/ecotune/ecotune/internal/horizon"
)

// century is 5,218 weeks (about 100 years): shifting a View by it keeps
// every hour of the day and day of the week.
const century = 5218 * 7 * 86400

// shifted returns a copy of v with every time moved by d seconds.
func shifted(v *View, d int64) *View {
	w := *v
	w.Now += d
	w.Start += d
	w.Nodes = append([]NodeView(nil), v.Nodes...)
	for i := range w.Nodes {
		n := &w.Nodes[i]
		n.Since += d
		if n.IdleSince != NoTime {
			n.IdleSince += d
		}
		if n.LastFailed != NoTime {
			n.LastFailed += d
		}
	}
	w.Queue = append([]QueuedJob(nil), v.Queue...)
	for i := range w.Queue {
		w.Queue[i].Submit += d
	}
	w.Running = append([]RunningJob(nil), v.Running...)
	for i := range w.Running {
		w.Running[i].Start += d
	}
	w.Recent = append([]Arrival(nil), v.Recent...)
	for i := range w.Recent {
		w.Recent[i].Time += d
	}
	w.IdleLRU = nil
	w.Recount()
	return &w
}

func shiftedFuture(jobs []FutureJob, d int64) []FutureJob {
	out := append([]FutureJob(nil), jobs...)
	for i := range out {
		out[i].Submit += d
		out[i].Start += d
		out[i].End += d
	}
	return out
}

// No policy overflows on a state within the bounds: on random Views whose
// times lie within a day of the horizon, with jobs asking up to the whole
// cluster, every policy decides exactly as on the same View a century
// earlier (its wake a century later than there), wakes after now and
// within a century of it, and every count stays non-negative. Overflow
// shows as a difference: a sum that wraps at the horizon does not wrap a
// century before it. (random's coin hashes the time a node went idle, so
// it is held to checkCommands only.)
func TestPolicyNoOverflowNearHorizon(t *testing.T) {
	const states = 250 // per policy
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(s.Name))))
			for k := range states {
				now := horizon.Unix - rng.Int64N(86400)
				v := randomView(rng, now)
				future := randomFuture(rng, now, v.TotalSlots)
				if rng.IntN(2) == 0 { // a queue asking the whole cluster
					for i := range v.Queue {
						v.Queue[i].Slots = v.TotalSlots - rng.IntN(2)
						v.Queue[i].ReqTime = horizon.MaxDuration - rng.Int64N(2)
					}
					v.Recount()
				}
				old := shifted(v, -century)
				d := decide(newForTest(t, s, future), v)
				want := decide(newForTest(t, s, shiftedFuture(future, -century)), old)
				checkCommands(t, v, d)
				if s.Name == "random" { // its coin is a hash of IdleSince, a time: only checkCommands applies
					continue
				}
				if !sameCommands(d, want) {
					t.Fatalf("state %d (now %d): decided\n%+v\na century earlier:\n%+v", k, now, d, want)
				}
				switch {
				case (d.Wake == NoTime) != (want.Wake == NoTime) || d.Wake != NoTime && d.Wake != want.Wake+century:
					t.Fatalf("state %d (now %d): wake %d, a century earlier %d", k, now, d.Wake, want.Wake)
				case d.Wake != NoTime && d.Wake-now > century:
					t.Fatalf("state %d (now %d): wake %d is more than a century after now", k, now, d.Wake)
				case v.IdleNodes < 0 || v.OffNodes < 0 || v.QueuedSlots < 0 || v.BusySlots < 0 || v.PoweredSlots < 0 || v.QueuedSubmitSum < 0:
					t.Fatalf("state %d: negative counts %+v", k, v)
				}
			}
		})
	}
}
