package reports

import (
	"cmp"
	"slices"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// An interval is a stretch of time [From, To) one node spent in one state.
type interval struct {
	Node     int32
	From, To int64
	State    policy.NodeState
}

// initialState is a node's state before its first recorded change: the
// simulator starts every node powered and idle, as EECluster and ESCS do.
const initialState = policy.Idle

// nodeIntervals turns a timeline's state changes into per-node intervals
// clipped to [from, to), ordered by node then time. Changes at the same
// instant for the same node keep the last one; empty intervals are dropped.
func nodeIntervals(tl *sim.Timeline, from, to int64) []interval {
	changes := slices.Clone(tl.Changes)
	slices.SortStableFunc(changes, func(a, b sim.Change) int {
		return cmp.Or(cmp.Compare(a.Node, b.Node), cmp.Compare(a.Time, b.Time))
	})
	out := make([]interval, 0, len(changes)+len(tl.NodeNames))
	k := 0
	for node := range int32(len(tl.NodeNames)) {
		state, since := initialState, from
		for ; k < len(changes) && changes[k].Node == node; k++ {
			c := changes[k]
			if c.Time > since {
				out = appendClipped(out, interval{node, since, c.Time, state}, from, to)
				since = c.Time
			}
			state = c.State
		}
		out = appendClipped(out, interval{node, since, to, state}, from, to)
	}
	return out
}

// appendClipped appends iv clipped to [from, to), merged with the previous
// interval when it continues it in the same state.
func appendClipped(out []interval, iv interval, from, to int64) []interval {
	iv.From, iv.To = max(iv.From, from), min(iv.To, to)
	if iv.From >= iv.To {
		return out
	}
	if n := len(out); n > 0 {
		last := &out[n-1]
		if last.Node == iv.Node && last.State == iv.State && last.To == iv.From {
			last.To = iv.To
			return out
		}
	}
	return append(out, iv)
}
