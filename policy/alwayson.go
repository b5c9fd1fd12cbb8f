package policy

// alwaysOn never switches a node off and boots every node that is off.
//
// Source: the baseline of every power-saving study (EECluster, ESCS).
type alwaysOn struct{}

func alwaysOnSpec() Spec {
	return withCheck(Spec{
		Name:   "always-on",
		Doc:    "every node always powered",
		Source: "baseline of EECluster (Cocaña-Fernández et al., 2015) and ESCS (Kiertscher et al.)",
	}, func(Config) (Policy, error) { return alwaysOn{}, nil })
}

func (alwaysOn) Name() string { return "always-on" }

// Quiet is true while no node is off: Decide then does nothing (Quiet).
func (alwaysOn) Quiet(v *View) bool { return v.OffNodes == 0 }

func (alwaysOn) Decide(v *View, d *Decision) {
	if v.OffNodes == 0 {
		return
	}
	for i := range v.Nodes {
		if v.Nodes[i].State == Off {
			d.PowerOn = append(d.PowerOn, i)
		}
	}
}

// alwaysOff is idle-timeout with a zero timeout, no spare node and no boot
// limit: every node is switched off as soon as it is idle and booted when
// the queue needs it.
//
// Source: the "on demand" lower bound of ESCS (Kiertscher et al.) and
// Slurm's SuspendTime=0.
func alwaysOffSpec() Spec {
	return withCheck(Spec{
		Name:   "always-off",
		Doc:    "off as soon as idle, boot on demand",
		Source: "on-demand baseline of ESCS (Kiertscher, Zinke, Schnor) and Slurm SuspendTime=0",
	}, func(Config) (Policy, error) { return &idleTimeout{}, nil })
}
