package policy

// Recount sets the summary counts of v (TotalSlots, PoweredSlots,
// BusySlots, BootingSlots, QueuedSlots) from its nodes and queue. The
// simulator maintains them incrementally; a daemon reading a state file
// calls Recount once.
func (v *View) Recount() {
	v.TotalSlots, v.PoweredSlots, v.BusySlots, v.BootingSlots, v.QueuedSlots = 0, 0, 0, 0, 0
	for i := range v.Nodes {
		n := &v.Nodes[i]
		v.TotalSlots += n.Slots
		switch n.State {
		case Booting:
			v.PoweredSlots += n.Slots
			v.BootingSlots += n.Slots
		case Idle, Busy:
			v.PoweredSlots += n.Slots
		}
		v.BusySlots += n.BusySlots
	}
	for i := range v.Queue {
		v.QueuedSlots += v.Queue[i].Slots
	}
}
