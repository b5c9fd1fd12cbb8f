package policy

// eecluster is the crisp rule set of EECluster's expert system.
//
// Source: Cocaña-Fernández, Ranilla, Sánchez, "Energy-efficient allocation
// of computing node slots in HPC clusters through parameter learning and
// hybrid genetic fuzzy system modeling", J. Supercomputing 71(3), 2015;
// "Improving the eco-efficiency of HPC clusters using EECluster", Energies
// 9(3):197, 2016; "Eco-efficient resource management in HPC clusters
// through computer intelligence techniques", Energies 12(11):2129, 2019
// (the reactive strategy).
//
// Each decision:
//   - R1: power on the slots the queue needs beyond the free slots (idle
//     or booting);
//   - R2: power on one more node if the mean wait of queued jobs exceeds
//     t_max or more than n_max jobs are queued;
//   - R3: otherwise, power off one idle node if the mean wait is below
//     t_min or fewer than n_min jobs are queued (never one the queue needs).
//
// Nodes are chosen by efficiency: the most GFLOPS/W first to power on, the
// least first to power off; nodes whose last power command failed come
// last, oldest failure first. Wake: the mean wait crossing t_max or t_min;
// after powering one node off, the next cycle (another may follow).
type eecluster struct {
	crisp
	order []int
}

func eeclusterSpec() Spec {
	return withCheck(Spec{
		Name: "eecluster",
		Doc:  "EECluster crisp rules R1-R3; nodes by GFLOPS/W, failed nodes last",
		Source: "Cocaña-Fernández, Ranilla, Sánchez, J. Supercomputing 71(3), 2015; " +
			"Cocaña-Fernández, Sánchez, Ranilla, Energies 9(3):197, 2016 and Energies 12(11):2129, 2019 (reactive strategy)",
		Params: crispParams,
	}, func(c Config) (Policy, error) { return &eecluster{crisp: crispFrom(c)}, nil })
}

func (p *eecluster) Name() string { return "eecluster" }

func (p *eecluster) Decide(v *View, d *Decision) {
	w := waitOf(v)
	d.Wake = p.wake(v, w)
	need, extra := queueDeficit(v), 0
	if p.r2(v, w) {
		extra = 1
	}
	if need > 0 || extra > 0 {
		p.order = bootOrder(v, p.order)
		bootInOrder(v, d, p.order, need, extra, -1)
		return
	}
	if !p.r3(v, w) {
		return
	}
	free := freeSlots(v)
	for _, i := range offOrder(v, v.IdleLRU, &p.order) {
		if free-v.Nodes[i].Slots >= v.QueuedSlots {
			d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
			d.Wake = earliest(d.Wake, v.Now+max(v.Period, 1))
			return
		}
	}
}
