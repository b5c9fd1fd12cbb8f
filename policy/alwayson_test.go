package policy

import (
	"slices"
	"testing"
)

// always-on boots every off node, whatever else happens, and never asks
// to be woken.
func TestAlwaysOn(t *testing.T) {
	nodes := []node{{state: Off}, {state: Idle, since: 0}, {state: Booting}, {state: Off}, {state: ShuttingDown}, {state: Busy}}
	d := decide(mustNew(t, "always-on"), mkView(1000, nodes, nil))
	if !slices.Equal(d.PowerOn, []int{0, 3}) || len(d.PowerOff) != 0 || d.Wake != NoTime {
		t.Errorf("got %+v; want nodes 0 and 3 on", d)
	}
}
