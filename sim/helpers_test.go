package sim_test

import (
	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// simple is a power model with round numbers for hand-worked cases:
// off 1 W, idle 10 W, +5 W per busy slot, boot 100 s and 1 Wh, shutdown
// 50 s and 0.5 Wh.
var simple = policy.NodeModel{OffW: 1, IdleW: 10, BusySlotW: 5, BootS: 100, BootWh: 1, ShutdownS: 50, ShutdownWh: 0.5}

// job is a trace job: submit, run, slots and requested time (0: unknown).
type job struct {
	submit, run int64
	slots       int32
	req         int64
}

func makeTrace(jobs ...job) *datasets.Trace {
	tr := &datasets.Trace{Meta: datasets.Meta{Name: "hand", Nodes: datasets.Unknown, Procs: datasets.Unknown}}
	for i, j := range jobs {
		req := j.req
		if req == 0 {
			req = datasets.Unknown
		}
		tr.Jobs = append(tr.Jobs, datasets.Job{
			ID: int64(i + 1), Submit: j.submit, Wait: datasets.Unknown, Run: j.run, Procs: j.slots,
			ReqProcs: j.slots, ReqTime: req, Status: 1, User: "u", Group: "g",
		})
	}
	return tr
}

// offWhenIdle is a test policy with an honest Wake: it boots Off nodes in
// node order while the queued slots exceed the free and booting slots, and
// when nothing waits switches off every node idle for at least timeout.
type offWhenIdle struct{ timeout int64 }

func (offWhenIdle) Name() string { return "off-when-idle" }

func (p offWhenIdle) Decide(v *policy.View, d *policy.Decision) {
	free := v.BootingSlots
	for i := range v.Nodes {
		if n := &v.Nodes[i]; n.State == policy.Idle || n.State == policy.Busy {
			free += n.Slots - n.BusySlots
		}
	}
	for i := range v.Nodes {
		if n := &v.Nodes[i]; n.State == policy.Off && free < v.QueuedSlots {
			d.PowerOn = append(d.PowerOn, i)
			free += n.Slots
		}
	}
	if v.QueuedSlots > 0 {
		return
	}
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.State != policy.Idle {
			continue
		}
		if due := n.IdleSince + p.timeout; due > v.Now {
			if d.Wake == policy.NoTime || due < d.Wake {
				d.Wake = due
			}
			continue
		}
		d.PowerOff = append(d.PowerOff, policy.NodeCommand{Node: i})
	}
}

// slowIdle sets every Idle node to frequency level 1 and switches nothing.
type slowIdle struct{}

func (slowIdle) Name() string { return "slow-idle" }

func (slowIdle) Decide(v *policy.View, d *policy.Decision) {
	for i := range v.Nodes {
		if n := &v.Nodes[i]; n.State == policy.Idle && n.Freq != 1 {
			d.Freq = append(d.Freq, policy.FreqCommand{Node: i, Level: 1})
		}
	}
}

// lateBoot switches node off whenever it is idle before time at, and from
// at on boots every Off node; it never boots on demand before at.
type lateBoot struct {
	off int
	at  int64
}

func (lateBoot) Name() string { return "late-boot" }

func (p lateBoot) Decide(v *policy.View, d *policy.Decision) {
	if v.Now < p.at {
		d.Wake = p.at
		if v.Nodes[p.off].State == policy.Idle {
			d.PowerOff = append(d.PowerOff, policy.NodeCommand{Node: p.off})
		}
		return
	}
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Off {
			d.PowerOn = append(d.PowerOn, i)
		}
	}
}
