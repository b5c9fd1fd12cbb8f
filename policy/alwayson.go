package policy

// alwaysOn never switches a node off and boots every node that is off.
//
// Source: the baseline of every power-saving study (EECluster, ESCS).
type alwaysOn struct{}

func (alwaysOn) Name() string { return "always-on" }

func (alwaysOn) Decide(v *View, d *Decision) {
	for i := range v.Nodes {
		if v.Nodes[i].State == Off {
			d.PowerOn = append(d.PowerOn, i)
		}
	}
}
