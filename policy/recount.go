package policy

// Recount sets the summary counts of v (TotalSlots, PoweredSlots,
// BusySlots, BootingSlots, QueuedSlots, QueuedSubmitSum, OffNodes,
// BootingNodes, IdleNodes, EarliestIdle) and IdleLRU from its nodes and queue. The
// simulator maintains them incrementally; a daemon reading a state file
// calls Recount once.
func (v *View) Recount() {
	v.TotalSlots, v.PoweredSlots, v.BusySlots, v.BootingSlots, v.QueuedSlots, v.QueuedSubmitSum = 0, 0, 0, 0, 0, 0
	v.OffNodes, v.BootingNodes, v.IdleNodes, v.EarliestIdle = 0, 0, 0, NoTime
	v.IdleLRU = v.IdleLRU[:0]
	for i := range v.Nodes {
		n := &v.Nodes[i]
		v.TotalSlots += n.Slots
		switch n.State {
		case Off:
			v.OffNodes++
		case Booting:
			v.PoweredSlots += n.Slots
			v.BootingSlots += n.Slots
			v.BootingNodes++
		case Idle:
			v.PoweredSlots += n.Slots
			v.IdleNodes++
			v.EarliestIdle = earliest(v.EarliestIdle, n.IdleSince)
			v.IdleLRU = append(v.IdleLRU, i)
		case Busy:
			v.PoweredSlots += n.Slots
		}
		v.BusySlots += n.BusySlots
	}
	for i := range v.Queue {
		v.QueuedSlots += v.Queue[i].Slots
		v.QueuedSubmitSum += v.Queue[i].Submit
	}
	sortLRU(v, v.IdleLRU)
}
