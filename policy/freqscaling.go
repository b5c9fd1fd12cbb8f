package policy

import (
	"cmp"
	"slices"
)

// The frequency-scaling family: node scaling (idle nodes off after
// idle_timeout, boot on demand) combined with a CPU frequency rule and a
// job-placement rule (Placer). The issue names them after a study of
// "node scaling with frequency scaling and job assignment" that we could
// not locate, so the acronyms are ecotune's own reading, stated here:
//
//	shf   Scale nodes, Highest Frequency: every node at its fastest level;
//	      jobs packed (nodes with the fewest free slots first).
//	slf   Scale nodes, Lowest Frequency: every node at its slowest level;
//	      packed.
//	ssq   Scale nodes, Speed by Queue: fastest while any job is queued,
//	      slowest when the queue is empty; packed.
//	swq   Scale nodes, speed by Wait in Queue: the mean wait w of queued
//	      jobs picks the level: of L levels by speed, the k-th slowest with
//	      k = min(L−1, ⌊w ÷ wait_fast · (L−1)⌋) (empty queue: slowest;
//	      w ≥ wait_fast: fastest); packed.
//	swqi  swq with Idle-first placement: jobs go to the nodes with the most
//	      free slots first (spread, no sharing of nodes).
//	swqn  swq that also scales Nodes by the wait: one more node is powered
//	      on while the mean wait exceeds wait_fast.
//	swqo  swq with immediate Off: idle nodes are switched off at once
//	      (no idle_timeout).
//
// Frequency commands go only to nodes not running jobs (the simulator
// ignores them on busy nodes: a job keeps the speed it started at) whose
// level differs from the target; groups without frequency levels get
// none. Wake: idle timeouts, and for the swq rules the mean wait crossing
// the next level boundary.
//
// Source: frequency levels and placement hook of the ecotune power model;
// frequency chosen by system load after Etinski, Corbalan, Labarta,
// Valero, "Utilization driven power-aware parallel job scheduling",
// Computer Science – Research and Development 25(3–4), 2010.
type freqScaling struct {
	name       string
	freq       freqRule
	spread     bool
	timeout    int64
	waitFast   float64
	bootOnWait bool
}

type freqRule int

const (
	freqHighest freqRule = iota
	freqLowest
	freqByQueue
	freqByWait
)

func freqSpecs() []Spec {
	type variant struct {
		name, doc  string
		freq       freqRule
		spread     bool
		bootOnWait bool
		offAtOnce  bool
	}
	variants := []variant{
		{"shf", "node scaling, every node at its highest frequency, jobs packed", freqHighest, false, false, false},
		{"slf", "node scaling, every node at its lowest frequency, jobs packed", freqLowest, false, false, false},
		{"ssq", "node scaling, fastest while jobs are queued, slowest otherwise, jobs packed", freqByQueue, false, false, false},
		{"swq", "node scaling, frequency rising with the mean queue wait, jobs packed", freqByWait, false, false, false},
		{"swqi", "swq with jobs placed on the nodes with the most free slots first", freqByWait, true, false, false},
		{"swqn", "swq that also powers on one more node while the mean wait exceeds wait_fast", freqByWait, false, true, false},
		{"swqo", "swq with idle nodes switched off at once", freqByWait, false, false, true},
	}
	timeout := Param{Name: "idle_timeout", Unit: "s", Doc: "idle time before a node is switched off", Min: 60, Max: 86400, Default: 1800, Integer: true, Log: true}
	waitFast := Param{Name: "wait_fast", Unit: "s", Doc: "mean queue wait at which nodes run at their fastest level", Min: 60, Max: 86400, Default: 3600, Log: true}
	var specs []Spec
	for _, x := range variants {
		var params []Param
		if !x.offAtOnce {
			params = append(params, timeout)
		}
		if x.freq == freqByWait {
			params = append(params, waitFast)
		}
		specs = append(specs, withCheck(Spec{
			Name:   x.name,
			Doc:    x.doc,
			Source: "ecotune's reading of the node/frequency-scaling family (the study was not found; see policy/freqscaling.go); DVFS by load after Etinski et al., Computer Science R&D 25, 2010",
			Params: params,
		}, func(c Config) (Policy, error) {
			return &freqScaling{name: x.name, freq: x.freq, spread: x.spread, bootOnWait: x.bootOnWait,
				timeout: int64(c.Params["idle_timeout"]), waitFast: c.Params["wait_fast"]}, nil
		}))
	}
	return specs
}

func (p *freqScaling) Name() string { return p.name }

func (p *freqScaling) Decide(v *View, d *Decision) {
	w := waitOf(v)
	p.setFreqs(v, d, w)
	need, extra := queueDeficit(v), 0
	if p.bootOnWait && w.above(v.Now, p.waitFast) {
		extra = 1
	}
	if p.bootOnWait {
		d.Wake = earliest(d.Wake, w.crossing(v.Now, p.waitFast))
	}
	if need > 0 || extra > 0 {
		if bootInOrder(v, d, nil, need, extra, -1) > 0 {
			return
		}
	}
	free := freeSlots(v)
	due, next := dueIdle(v, p.timeout)
	d.Wake = earliest(d.Wake, next)
	for _, i := range due {
		free = offIfFree(v, d, i, 0, free)
	}
}

// setFreqs commands the target level to every node not running a job
// whose level differs, and wakes when the swq target can change.
func (p *freqScaling) setFreqs(v *View, d *Decision, w queueWait) {
	for g := range v.Groups {
		levels := v.Groups[g].Model.Freqs
		if len(levels) == 0 {
			continue
		}
		target := p.target(levels, v.Now, w)
		for i := range v.Nodes {
			n := &v.Nodes[i]
			if n.Group == g && n.State != Busy && n.State != ShuttingDown && n.Freq != target {
				d.Freq = append(d.Freq, FreqCommand{Node: i, Level: target})
			}
		}
		if p.freq == freqByWait && len(levels) > 1 {
			k := p.waitRank(len(levels), v.Now, w)
			if k < len(levels)-1 {
				d.Wake = earliest(d.Wake, w.crossing(v.Now, p.waitFast*float64(k+1)/float64(len(levels)-1)))
			}
		}
	}
}

// target is the level index of levels the rule asks for.
func (p *freqScaling) target(levels []FreqLevel, now int64, w queueWait) int {
	fastest := len(levels) - 1
	switch p.freq {
	case freqLowest:
		return bySpeed(levels, 0)
	case freqByQueue:
		if w.n == 0 {
			return bySpeed(levels, 0)
		}
	case freqByWait:
		return bySpeed(levels, p.waitRank(len(levels), now, w))
	}
	return bySpeed(levels, fastest)
}

// waitRank is k, the speed rank (0 slowest) swq picks at time now.
func (p *freqScaling) waitRank(n int, now int64, w queueWait) int {
	if n == 1 || w.n == 0 {
		return 0
	}
	for k := n - 1; k > 0; k-- {
		// rank k once the mean wait reaches wait_fast·k/(n−1)
		if !w.below(now, p.waitFast*float64(k)/float64(n-1)) {
			return k
		}
	}
	return 0
}

// bySpeed returns the index of the level of speed rank k (0 slowest; ties
// by index).
func bySpeed(levels []FreqLevel, k int) int {
	for j := range levels {
		rank := 0
		for i := range levels {
			if levels[i].Speed < levels[j].Speed || (levels[i].Speed == levels[j].Speed && i < j) {
				rank++
			}
		}
		if rank == k {
			return j
		}
	}
	return 0
}

// Place orders the candidate nodes for a starting job: packed (fewest
// free slots first, so whole nodes stay idle and can go off) or, for
// swqi, spread (most free slots first); ties by node ID.
func (p *freqScaling) Place(v *View, _ *QueuedJob, candidates []int) {
	sign := 1
	if p.spread {
		sign = -1
	}
	slices.SortFunc(candidates, func(a, b int) int {
		fa, fb := v.Nodes[a].Slots-v.Nodes[a].BusySlots, v.Nodes[b].Slots-v.Nodes[b].BusySlots
		return cmp.Or(sign*cmp.Compare(fa, fb), cmp.Compare(a, b))
	})
}
