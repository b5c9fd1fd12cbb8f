package sim

import "github.com/ecotune/ecotune/policy"

// groupAcct counts one node group's nodes per state and integrates them
// over time in integer node-seconds, lazily: the counts are integrated up
// to the current time only when one of them changes, and once at the end.
// Energy is computed once, at the end, from these integers. Idle and Busy nodes are counted together (as Idle):
// a job start or end changes no counter, and Busy node-seconds are added
// per busy interval when a node turns Idle again. Busy slot-seconds are
// added per job when it starts: a node's frequency cannot change while it
// is Busy, so they are known then.
type groupAcct struct {
	model    policy.NodeModel
	inState  [5]int64 // nodes in each state, Busy ones under Idle
	inLevel  []int64  // off nodes at each level: 0 power-off, k sleep level k-1
	sec      [5]int64 // node-seconds in each state, Busy ones also under Idle
	levelSec []int64  // off node-seconds at each level
	slotSec  []int64  // busy slot-seconds at each frequency level
	boots    []int64  // boots from each level
	offs     []int64  // shutdowns into each level
	at       int64    // sec and levelSec are integrated up to this time
}

func (a *groupAcct) init(m policy.NodeModel) {
	a.model = m
	levels := 1 + len(m.SleepLevels)
	a.inLevel = make([]int64, levels)
	a.levelSec = make([]int64, levels)
	a.boots = make([]int64, levels)
	a.offs = make([]int64, levels)
	a.slotSec = make([]int64, max(1, len(m.Freqs)))
}

func (a *groupAcct) reset(t int64) {
	a.at = t
	a.inState = [5]int64{}
	a.sec = [5]int64{}
	for _, s := range [][]int64{a.inLevel, a.levelSec, a.boots, a.offs, a.slotSec} {
		clear(s)
	}
}

// integrate brings sec and levelSec up to time t.
func (a *groupAcct) integrate(t int64) {
	dt := t - a.at
	if dt <= 0 {
		return
	}
	a.at = t
	for st, n := range a.inState {
		a.sec[st] += n * dt
	}
	for l, n := range a.inLevel {
		a.levelSec[l] += n * dt
	}
}

// stateSeconds is the node-seconds in each state, Idle and Busy apart.
func (a *groupAcct) stateSeconds() [5]int64 {
	sec := a.sec
	sec[policy.Idle] -= sec[policy.Busy]
	return sec
}

// slotW is the power of one busy slot at frequency level f.
func (a *groupAcct) slotW(f int) float64 {
	if len(a.model.Freqs) == 0 {
		return a.model.BusySlotW
	}
	return a.model.Freqs[f].SlotW
}

// energy returns the group's energy in Wh by state: off (and asleep)
// draws its residual power, idle IdleW, busy IdleW+BusyW plus the busy
// slots; booting and shutting down draw the transition energies, counted
// per transition.
func (a *groupAcct) energy() (byState [5]float64) {
	m := a.model
	sec := a.stateSeconds()
	off := float64(a.levelSec[0]) * m.OffW
	for l, sl := range m.SleepLevels {
		off += float64(a.levelSec[l+1]) * sl.W
	}
	byState[policy.Off] = off / 3600
	byState[policy.Idle] = float64(sec[policy.Idle]) * m.IdleW / 3600
	busy := float64(sec[policy.Busy]) * (m.IdleW + m.BusyW)
	for f, ss := range a.slotSec {
		busy += float64(ss) * a.slotW(f)
	}
	byState[policy.Busy] = busy / 3600
	boot := float64(a.boots[0]) * m.BootWh
	down := float64(a.offs[0]) * m.ShutdownWh
	for l, sl := range m.SleepLevels {
		boot += float64(a.boots[l+1]) * sl.ExitWh
		down += float64(a.offs[l+1]) * sl.EnterWh
	}
	byState[policy.Booting] = boot
	byState[policy.ShuttingDown] = down
	return byState
}

// advance moves the clock to t (counters are integrated when they change).
func (s *Simulator) advance(t int64) {
	s.st.now = max(s.st.now, t)
}

// setPowered changes the count of powered nodes by k at the current time.
func (s *Simulator) setPowered(k int) {
	st := &s.st
	st.poweredS += int64(st.powered) * (st.now - st.poweredAt)
	st.poweredAt = st.now
	st.powered += k
	st.res.PeakPoweredNodes = max(st.res.PeakPoweredNodes, st.powered)
}

// finish fills the accounting fields of r for a run that ended at tEnd.
func (s *Simulator) finish(r *Result, tEnd int64) {
	st := &s.st
	r.TIni, r.TEnd = s.tIni, tEnd
	s.setPowered(0)
	r.PoweredNodeSeconds = st.poweredS
	r.OffNodeSeconds = int64(r.Nodes)*(tEnd-s.tIni) - st.poweredS
	for g := range st.acct {
		a := &st.acct[g]
		a.integrate(tEnd)
		for k, v := range a.stateSeconds() {
			r.StateSeconds[k] += v
		}
		for _, v := range a.slotSec {
			r.BusySlotSeconds += v
		}
		e := a.energy()
		for k, v := range e {
			r.EnergyByState[k] += v
		}
	}
	for _, v := range r.EnergyByState {
		r.EnergyWh += v
	}
}
