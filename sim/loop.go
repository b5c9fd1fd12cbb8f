package sim

import (
	"errors"
	"fmt"

	"github.com/ecotune/ecotune/policy"
)

// replay runs the event loop of one simulation into r.
func (s *Simulator) replay(p policy.Policy, r *Result) error {
	s.reset(p, r)
	st := &s.st
	for {
		// The next time is the earliest of the next event, submission,
		// decision and local midnight, found here (the loop's hottest
		// spot) without a call in the common cases: nextEvent and
		// tickAtOrAfter are inlined. The next decision is the tick at or
		// after now found last when the view changed, the one kept at the
		// last consultation when not.
		dec := st.wakeTick
		if st.changed && s.period > 0 {
			dec = s.tickAtOrAfter(max(st.now, st.last+1))
		}
		t := min(st.nextEvent(), dec)
		s.advance(t)
		for len(st.events) > 0 && st.events[0].t == t {
			e := st.events.pop()
			s.end(e.job(), e.alloc())
		}
		if len(st.expiries) > 0 && st.expiries[0] == t {
			s.expire(t)
		}
		if st.ended == len(s.jobs) {
			s.finishReplay(r, t)
			return nil
		}
		if st.nextTrans <= t {
			s.transitions(t)
		}
		if t >= st.nextRoll {
			s.roll(t)
		}
		if st.nextSubmit == t {
			s.submit(t)
		}
		if st.schedule {
			s.schedulePass()
		}
		if s.due(t) {
			if err := s.consult(p); err != nil {
				return err
			}
		} else if st.changed && st.wasQuiet {
			s.skipQuiet()
		}
		if st.res.Timeline != nil {
			s.recordStep()
		}
		if !s.waitsOnPolicy() {
			st.idle = 0
		} else if err := s.checkStuck(); err != nil {
			return err
		}
	}
}

// nextEvent is the earliest of the next roll, transition, submission,
// job end and expiry. It is inlined in the event loop.
func (st *state) nextEvent() int64 {
	t := min(st.nextRoll, st.nextTrans, st.nextSubmit)
	if len(st.events) > 0 {
		t = min(t, st.events[0].t)
	}
	if len(st.expiries) > 0 {
		t = min(t, st.expiries[0])
	}
	return t
}

// finishReplay closes the replay at tEnd into r, with the timeline's last
// step when r has one.
func (s *Simulator) finishReplay(r *Result, tEnd int64) {
	s.finish(r, tEnd)
	if r.Timeline != nil {
		s.recordStep()
	}
}

func (s *Simulator) reset(p policy.Policy, r *Result) {
	st := &s.st
	st.res = r
	st.now = s.tIni
	st.placer, _ = p.(policy.Placer)
	st.quiet, _ = p.(policy.Quiet)
	// A quiet policy may never need View.IdleLRU: the list of idle nodes
	// is then built only when first needed.
	st.idleLazy = st.quiet != nil
	// On one-slot nodes of nominal speed, and with no timeline to log
	// node changes, the view's nodes need not be kept either until then.
	st.nodesLazy = st.idleLazy && s.oneSlot && !s.hasFreqs && st.placer == nil && !s.opt.Timeline
	st.wasQuiet = false
	st.pcg.Seed(uint64(s.opt.Seed), rngStream)
	s.resetNodes()
	st.events = st.events[:0]
	s.resetTransitions()
	if st.indexed {
		s.unindex() // a failed run may have left jobs queued
	}
	st.queue.reset()
	st.qslots.reset()
	st.running.reset()
	st.ends = st.ends[:0]
	st.expiries = st.expiries[:0]
	st.scanned = scanMemo{}
	st.boots.reset()
	st.feat.Reset(s.tIni, int(s.tz), 0) // node times stay in the view (see syncView)
	st.nextRoll = st.feat.NextRoll()
	st.nextJob, st.ended, st.seq, st.poweredS, st.idle = 0, 0, 0, 0, 0
	st.nextSubmit = never
	if len(s.jobs) > 0 { // a partition may have none
		st.nextSubmit = s.jobs[0].submit
	}
	st.changed, st.schedule = true, false
	st.last, st.wake, st.tick, st.wakeTick = s.tIni-1, policy.NoTime, s.tIni, never
	st.lastStep = Step{Time: -1}
	v := &st.view
	v.Now, v.Start, v.TZOffset, v.Period = s.tIni, s.tIni, int(s.tz), max(s.period, 0)
	v.Queue, v.Running, v.Recent = nil, nil, nil
	v.HourlySlots = st.feat.HourlySlots()
	r.PeakPoweredNodes = st.powered
}

// wakeDecision is the next time the policy must be consulted, if nothing
// else happens first, while the view has not changed since the last
// consultation: the tick at or after the Wake it returned (the Wake
// itself with Period EveryEvent), or never. It changes only when the
// policy is consulted, which keeps it in st.wakeTick. (When the view has
// changed, the next decision is the first tick from now on, or with
// Period EveryEvent still the Wake: see the loop.)
func (s *Simulator) wakeDecision() int64 {
	st := &s.st
	wake := st.wake
	switch {
	case wake == policy.NoTime || wake <= st.last:
		return never
	case s.period == EveryEvent:
		return wake
	}
	return s.tickAtOrAfter(wake)
}

// tickAtOrAfter is the first decision tick TIni + k·Period ≥ t ≥ TIni.
// The tick found last is kept: the loop asks again and again within one
// period, and a comparison is cheaper than the division.
func (s *Simulator) tickAtOrAfter(t int64) int64 {
	if tk := s.st.tick; uint64(tk-t) < uint64(s.period) { // tk−period < t ≤ tk
		return tk
	}
	k := s.ticks.quo(t - s.tIni + s.period - 1)
	s.st.tick = s.tIni + k*s.period
	return s.st.tick
}

// due reports whether the policy is consulted at t (see doc.go).
func (s *Simulator) due(t int64) bool {
	st := &s.st
	if t <= st.last {
		return false
	}
	if !st.changed && (st.wake == policy.NoTime || t < st.wake) {
		return false
	}
	if s.period == EveryEvent {
		return true
	}
	return t == s.tickAtOrAfter(t)
}

// transitions completes the boots and shutdowns that end at t (the next
// transition's end).
func (s *Simulator) transitions(t int64) {
	for _, key := range s.dueTransitions(t) {
		kind, id := orderKey(key)
		switch kind {
		case evBootDone:
			s.bootDone(id)
		case evBootFail:
			s.bootFail(id)
		case evShutdownDone:
			s.shutdownDone(id)
		default:
			panic(fmt.Sprintf("sim: event kind %d out of order", kind))
		}
	}
}

// submit queues the jobs submitted at t, in trace order.
func (s *Simulator) submit(t int64) {
	st := &s.st
	for st.nextSubmit == t {
		j := int32(st.nextJob)
		st.nextJob++
		st.nextSubmit = never
		if st.nextJob < len(s.jobs) {
			st.nextSubmit = s.jobs[st.nextJob].submit
		}
		info := &s.jobs[j]
		q := st.queue.pushNew(j)
		s.queuedJob(j, q)
		st.view.QueuedSlots += int(info.slots)
		st.view.QueuedSubmitSum += q.Submit
		st.qslots.add(int(info.slots))
		if st.indexed {
			st.cands.set(int(j), info.slots, int64(info.est))
		}
		st.feat.Submitted(policy.Arrival{Time: t, Slots: int(info.slots), ReqTime: q.ReqTime})
		st.schedule = true
		st.changed = true
	}
	st.view.Recent = st.feat.Recent()
}

// roll closes the local days ending by t (the next midnight): the
// feature state takes each into View.HourlySlots.
func (s *Simulator) roll(t int64) {
	st := &s.st
	st.feat.Advance(t)
	st.view.HourlySlots = st.feat.HourlySlots()
	st.nextRoll = st.feat.NextRoll()
	st.changed = true
}

// syncView points the view's lists at the simulator's current ones, but
// for IdleLRU (syncIdleLRU).
func (s *Simulator) syncView() {
	st := &s.st
	v := &st.view
	v.Now = st.now
	v.Queue = st.queue.items()
	v.Running = st.running.items()
}

// skipQuiet takes the decision due at the next tick now, when the view
// has changed since the last one and the policy, being quiet, would
// decide nothing then: no step of the loop need stop at that tick. The
// view at the tick would be this one, but for the time, if nothing
// happens before; if something does, the view has changed again and this
// is asked again. Quiet stays true while only time passes (see
// policy.Quiet), so the decision at the tick would be quiet too, and
// leave the state this leaves (the time of the last decision apart, which
// only keeps a second from being decided twice). A run that waits on the
// policy steps through every tick as before: the steps are counted (see
// checkStuck). It is tried only while the policy was quiet when last
// asked: a policy quiet now and then does not pay for asking at every
// step.
func (s *Simulator) skipQuiet() {
	st := &s.st
	s.syncView()
	if st.wasQuiet = st.quiet.Quiet(&st.view); st.wasQuiet && !s.waitsOnPolicy() {
		st.changed = false
		st.wake, st.wakeTick = policy.NoTime, never
	}
}

// consult asks the policy for a decision, applies it and schedules again.
func (s *Simulator) consult(p policy.Policy) error {
	st := &s.st
	s.syncView()
	if st.wasQuiet = st.quiet != nil && st.quiet.Quiet(&st.view); st.wasQuiet { // as if Decide had decided nothing
		st.last, st.changed = st.now, false
		st.wake, st.wakeTick = policy.NoTime, never
		return nil
	}
	s.syncIdleLRU()
	st.dec.Reset()
	p.Decide(&st.view, &st.dec)
	st.last = st.now
	st.changed = false
	st.wake = st.dec.Wake
	st.wakeTick = s.wakeDecision()
	d := &st.dec
	if len(d.PowerOn) == 0 && len(d.PowerOff) == 0 && len(d.Freq) == 0 {
		return nil // most decisions change nothing
	}
	applied, err := s.apply(d)
	if err != nil {
		return err
	}
	if applied > 0 {
		st.idle = 0
		if st.queue.len() > 0 {
			s.schedulePass()
		}
	}
	return nil
}

// apply carries out a decision's commands in order: power-ons, power-offs,
// frequency changes. Commands that do not fit the node's state are
// counted and ignored; a node or level out of range is the policy's bug.
func (s *Simulator) apply(d *policy.Decision) (applied int, err error) {
	if applied, err = s.applyPowerOn(d.PowerOn); err != nil {
		return applied, err
	}
	n, err := s.applyPowerOff(d.PowerOff)
	applied += n
	if err != nil {
		return applied, err
	}
	n, err = s.applyFreq(d.Freq)
	return applied + n, err
}

// applyPowerOn boots the Off nodes of on, counting the others ignored,
// and returns how many it booted.
func (s *Simulator) applyPowerOn(on []int) (applied int, err error) {
	st := &s.st
	nodes := st.view.Nodes
	for _, i := range on {
		if i < 0 || i >= len(nodes) {
			return applied, fmt.Errorf("power on node %d: no such node (0..%d)", i, len(nodes)-1)
		}
		if nodes[i].State != policy.Off {
			st.res.IgnoredCommands++
			continue
		}
		s.boot(i)
		applied++
	}
	return applied, nil
}

// applyPowerOff shuts down the Idle nodes of off to their levels,
// counting the others ignored, and returns how many it shut down.
func (s *Simulator) applyPowerOff(off []policy.NodeCommand) (applied int, err error) {
	st := &s.st
	nodes := st.view.Nodes
	for _, c := range off {
		if c.Node < 0 || c.Node >= len(nodes) {
			return applied, fmt.Errorf("power off node %d: no such node (0..%d)", c.Node, len(nodes)-1)
		}
		if levels := len(s.groups[nodes[c.Node].Group].Model.SleepLevels); c.Level < 0 || c.Level > levels {
			return applied, fmt.Errorf("power off node %d to level %d: its group has levels 0..%d", c.Node, c.Level, levels)
		}
		if nodes[c.Node].State != policy.Idle {
			st.res.IgnoredCommands++
			continue
		}
		s.shutdown(c.Node, c.Level)
		applied++
	}
	return applied, nil
}

// applyFreq sets the frequency levels of freq on the nodes not Busy,
// counting the others ignored, and returns how many it set.
func (s *Simulator) applyFreq(freq []policy.FreqCommand) (applied int, err error) {
	st := &s.st
	nodes := st.view.Nodes
	for _, c := range freq {
		if c.Node < 0 || c.Node >= len(nodes) {
			return applied, fmt.Errorf("set frequency of node %d: no such node (0..%d)", c.Node, len(nodes)-1)
		}
		if levels := len(s.groups[nodes[c.Node].Group].Model.Freqs); c.Level < 0 || c.Level >= max(levels, 1) {
			return applied, fmt.Errorf("set frequency of node %d to level %d: its group has levels 0..%d", c.Node, c.Level, max(levels, 1)-1)
		}
		n := &nodes[c.Node]
		if n.State == policy.Busy {
			st.res.IgnoredCommands++
			continue
		}
		if n.Freq != c.Level {
			n.Freq = c.Level
			st.changed = true
		}
		applied++
	}
	return applied, nil
}

var errStuck = errors.New("jobs wait but nothing is pending and the policy powers no node on")

// waitsOnPolicy reports whether jobs wait and nothing else is pending: no
// event, transition or submission.
func (s *Simulator) waitsOnPolicy() bool {
	st := &s.st
	return len(st.events) == 0 && !s.pendingTransitions() && st.nextJob == len(s.jobs) && st.queue.len() > 0
}

// checkStuck counts an iteration in which the run waits on the policy
// and fails the run when there were too many in a row: its queued jobs
// can never start.
func (s *Simulator) checkStuck() error {
	st := &s.st
	st.idle++
	if st.idle > stuckConsults {
		return fmt.Errorf("at %d: %d jobs (%d slots) queued, %d slots powered: %w", st.now, st.queue.len(), st.view.QueuedSlots, st.view.PoweredSlots, errStuck)
	}
	return nil
}

// recordStep appends a timeline step (Result.Timeline is requested) when
// powered or busy slots changed.
func (s *Simulator) recordStep() {
	st := &s.st
	tl := st.res.Timeline
	v := &st.view
	step := Step{Time: st.now, Requested: v.BusySlots + v.QueuedSlots, Powered: v.PoweredSlots, Busy: v.BusySlots}
	last := st.lastStep
	if last.Requested == step.Requested && last.Powered == step.Powered && last.Busy == step.Busy && last.Time >= 0 {
		return
	}
	if n := len(tl.Steps); n > 0 && tl.Steps[n-1].Time == step.Time {
		tl.Steps[n-1] = step
	} else {
		tl.Steps = append(tl.Steps, step)
	}
	st.lastStep = step
}
