package policy

import (
	"cmp"
	"slices"
)

// crisp holds the thresholds of the EECluster expert rules R2 and R3.
type crisp struct {
	tMax, tMin float64 // mean-wait thresholds, s
	nMax, nMin int     // queue-length thresholds, jobs
}

var crispParams = []Param{
	{Name: "t_max", Unit: "s", Doc: "R2: power on one more node when the mean wait of queued jobs exceeds this", Min: 60, Max: 86400, Default: 1800, Log: true},
	{Name: "n_max", Unit: "jobs", Doc: "R2: power on one more node when more jobs than this are queued", Min: 1, Max: 1000, Default: 16, Integer: true, Log: true},
	{Name: "t_min", Unit: "s", Doc: "R3: power off allowed while the mean wait is below this", Min: 0, Max: 86400, Default: 300},
	{Name: "n_min", Unit: "jobs", Doc: "R3: power off allowed while fewer jobs than this are queued", Min: 0, Max: 1000, Default: 1, Integer: true},
}

func crispFrom(c Config) crisp {
	return crisp{tMax: c.Params["t_max"], tMin: c.Params["t_min"], nMax: int(c.Params["n_max"]), nMin: int(c.Params["n_min"])}
}

// r2 reports whether R2 asks for one more node: the mean wait exceeds
// t_max or more than n_max jobs are queued.
func (c crisp) r2(v *View, w queueWait) bool {
	return w.above(v.Now, c.tMax) || w.n > c.nMax
}

// r3 reports whether R3 allows powering off: the mean wait is below t_min
// or fewer than n_min jobs are queued.
func (c crisp) r3(v *View, w queueWait) bool {
	return w.below(v.Now, c.tMin) || w.n < c.nMin
}

// wake is when R2 or R3 change with time alone: the mean wait crossing
// t_max or t_min.
func (c crisp) wake(v *View, w queueWait) int64 {
	return earliest(w.crossing(v.Now, c.tMax), w.crossing(v.Now, c.tMin))
}

// efficiency is the GFLOPS per W of a node of group g at full load (0 when
// unknown).
func efficiency(g *Group) float64 {
	w := g.Model.IdleW + g.Model.BusyW + g.Model.BusySlotW*float64(g.Slots)
	if g.GFLOPS <= 0 || w <= 0 {
		return 0
	}
	return g.GFLOPS / w
}

// sameEfficiency reports whether every group has the same efficiency.
func sameEfficiency(groups []Group) bool {
	for g := 1; g < len(groups); g++ {
		if efficiency(&groups[g]) != efficiency(&groups[0]) {
			return false
		}
	}
	return true
}

// failedLast orders nodes that never failed their last command before
// those that did, and among those the oldest failure first.
func failedLast(a, b *NodeView) int {
	return cmp.Compare(a.LastFailed, b.LastFailed) // NoTime is the smallest
}

// bootOrder appends the Off nodes to buf[:0]: nodes that failed last
// (oldest failure first), then by efficiency, most efficient first, then
// by ID. It sorts only when failures or efficiencies tell the nodes apart.
func bootOrder(v *View, buf []int) []int {
	buf = buf[:0]
	if v.OffNodes == 0 {
		return buf
	}
	plain := sameEfficiency(v.Groups)
	for i := range v.Nodes {
		if n := &v.Nodes[i]; n.State == Off {
			buf = append(buf, i)
			plain = plain && n.LastFailed == NoTime
		}
	}
	if plain {
		return buf // node-ID order
	}
	slices.SortFunc(buf, func(a, b int) int {
		na, nb := &v.Nodes[a], &v.Nodes[b]
		return cmp.Or(failedLast(na, nb),
			cmp.Compare(efficiency(&v.Groups[nb.Group]), efficiency(&v.Groups[na.Group])),
			cmp.Compare(a, b))
	})
	return buf
}

// bootEfficientFirst boots as bootInOrder over bootOrder(v, *buf) does,
// with buf as scratch. When the groups are equally efficient it first
// walks the nodes in ID order, which is that order until the first Off
// node that failed: if it stops before meeting one, it has booted the
// same nodes without listing or sorting the Off nodes.
func bootEfficientFirst(v *View, d *Decision, buf *[]int, slots, extra, maxNodes int) int {
	if v.OffNodes == 0 {
		return 0
	}
	if sameEfficiency(v.Groups) {
		if n, ok := bootNoneFailed(v, d, slots, extra, maxNodes); ok {
			return n
		}
	}
	*buf = bootOrder(v, *buf)
	return bootInOrder(v, d, *buf, slots, extra, maxNodes)
}

// bootNoneFailed is bootInOrder in node-ID order as long as no Off node it
// reaches has failed; if one has, it takes back what it appended and
// reports false.
func bootNoneFailed(v *View, d *Decision, slots, extra, maxNodes int) (int, bool) {
	start, booted, n := len(d.PowerOn), 0, 0
	for i := range v.Nodes {
		if n == maxNodes || (booted >= slots && extra == 0) {
			break
		}
		node := &v.Nodes[i]
		if node.State != Off {
			continue
		}
		if node.LastFailed != NoTime {
			d.PowerOn = d.PowerOn[:start]
			return 0, false
		}
		if booted >= slots {
			extra--
		}
		d.PowerOn = append(d.PowerOn, i)
		booted += node.Slots
		n++
	}
	return n, true
}

// offOrder returns the idle nodes ids, given least recently used first
// (as in View.IdleLRU), in switch-off order: nodes that failed last
// (oldest failure first), then least efficient first, then least recently
// used. It returns ids itself when failures and efficiencies do not tell
// them apart, else a sorted copy in *buf.
func offOrder(v *View, ids []int, buf *[]int) []int {
	plain := true
	same := sameEfficiency(v.Groups)
	for _, i := range ids {
		n := &v.Nodes[i]
		if n.LastFailed != NoTime || !same && efficiency(&v.Groups[n.Group]) != efficiency(&v.Groups[v.Nodes[ids[0]].Group]) {
			plain = false
			break
		}
	}
	if plain {
		return ids
	}
	*buf = append((*buf)[:0], ids...)
	slices.SortStableFunc(*buf, func(a, b int) int {
		na, nb := &v.Nodes[a], &v.Nodes[b]
		return cmp.Or(failedLast(na, nb),
			cmp.Compare(efficiency(&v.Groups[na.Group]), efficiency(&v.Groups[nb.Group])))
	})
	return *buf
}
