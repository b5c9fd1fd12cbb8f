package daemon

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// guardCase is a cluster of five 4-slot nodes: n1 idle, n2 busy, n3 off,
// n4 drained (unavailable, so not in the View), n5 off and failed to
// resume, n6 idle but excluded, n7 idle with a power down asked.
func guardCase(t *testing.T) (*Snapshot, *policy.View) {
	t.Helper()
	snap := &Snapshot{Time: 1000, Nodes: []Node{
		{Name: "n1", CPUs: 4, Power: policy.Idle},
		{Name: "n2", CPUs: 4, AllocCPUs: 4, Power: policy.Busy},
		{Name: "n3", CPUs: 4, Power: policy.Off},
		{Name: "n4", CPUs: 4, Power: policy.Idle, Unavailable: "idle+drain"},
		{Name: "n5", CPUs: 4, Power: policy.Off, Unavailable: "down+powered_down", ResumeFailed: true},
		{Name: "n6", CPUs: 4, Power: policy.Idle},
		{Name: "n7", CPUs: 4, Power: policy.ShuttingDown, PowerDownRequested: true},
		{Name: "n8", CPUs: 4, Power: policy.Off},
	}, Jobs: []Job{{ID: 1, Running: true, CPUs: 4, Nodes: []string{"n2"}, Submit: 900, Start: 950}}}
	rs := &policy.RuleSet{Cluster: []policy.Group{{Name: "g", Count: 8, Slots: 4}}, Period: 60}
	var names []string
	for _, n := range snap.Nodes {
		names = append(names, n.Name)
	}
	a := &Assignment{Order: names, Group: map[string]int{}, Counts: []int{8}}
	for _, n := range names {
		a.Group[n] = 0
	}
	h := NewHistory(900, 0, names)
	h.Update(1000, snap.Nodes, snap.Jobs)
	st := BuildState(rs, a, h, 0, snap)
	v, err := st.View(rs.Cluster, rs.Period)
	if err != nil {
		t.Fatal(err)
	}
	return snap, v
}

func idOf(t *testing.T, v *policy.View, name string) int {
	for i := range v.Nodes {
		if v.Nodes[i].Name == name {
			return i
		}
	}
	t.Fatalf("%s not in the view", name)
	return -1
}

func TestTranslate(t *testing.T) {
	snap, v := guardCase(t)
	for _, hidden := range []string{"n4", "n5"} {
		for i := range v.Nodes {
			if v.Nodes[i].Name == hidden {
				t.Errorf("unavailable %s is in the View", hidden)
			}
		}
	}
	id := func(name string) int { return idOf(t, v, name) }
	tests := []struct {
		name    string
		guard   Guard
		off, on []string
		want    []Command
		refused map[string]string
	}{
		{"idle node down, off node up", Guard{}, []string{"n1"}, []string{"n3"},
			[]Command{{Verb: VerbPowerDown, Nodes: []string{"n1"}}, {Verb: VerbPowerUp, Nodes: []string{"n3"}}}, nil},
		{"busy, excluded and already asked never", Guard{Exclude: map[string]bool{"n6": true}}, []string{"n2", "n6", "n7", "n1"}, nil,
			[]Command{{Verb: VerbPowerDown, Nodes: []string{"n1"}}},
			map[string]string{"n2": "runs a job", "n6": "excluded", "n7": "not idle: shutting-down"}},
		{"up only when off", Guard{}, nil, []string{"n1", "n3", "n8"},
			[]Command{{Verb: VerbPowerUp, Nodes: []string{"n3", "n8"}}}, map[string]string{"n1": "not powered down: idle"}},
		{"booting limit", Guard{MaxBooting: 1}, nil, []string{"n3", "n8"},
			[]Command{{Verb: VerbPowerUp, Nodes: []string{"n3"}}}, map[string]string{"n8": "1 nodes booting, at most 1"}},
		{"excluded never up", Guard{Exclude: map[string]bool{"n3": true}}, nil, []string{"n3"}, nil, map[string]string{"n3": "excluded"}},
		{"twice in one decision", Guard{}, []string{"n1", "n1"}, nil,
			[]Command{{Verb: VerbPowerDown, Nodes: []string{"n1"}}}, map[string]string{"n1": "already in this decision"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d policy.Decision
			d.Reset()
			for _, n := range tt.off {
				d.PowerOff = append(d.PowerOff, policy.NodeCommand{Node: id(n)})
			}
			for _, n := range tt.on {
				d.PowerOn = append(d.PowerOn, id(n))
			}
			cmds, refused := tt.guard.Translate(&d, v, snap)
			if !reflect.DeepEqual(cmds, tt.want) {
				t.Errorf("commands %+v, want %+v", cmds, tt.want)
			}
			got := map[string]string{}
			for _, r := range refused {
				got[r.Node] = r.Why
			}
			if len(got) != len(tt.refused) {
				t.Errorf("refused %v, want %v", got, tt.refused)
			}
			for n, why := range tt.refused {
				if got[n] != why {
					t.Errorf("%s refused %q, want %q", n, got[n], why)
				}
			}
			// Whatever the policy asks, nothing unavailable, busy or
			// excluded is ever commanded down.
			for _, c := range cmds {
				for _, n := range c.Nodes {
					if c.Verb == VerbPowerDown && (n == "n2" || n == "n4" || n == "n5" || tt.guard.Exclude[n]) {
						t.Errorf("%s commanded down", n)
					}
				}
			}
		})
	}
}

// A job running on a node whose Slurm state still reads idle (the
// listing raced) keeps it up.
func TestTranslateJobOnIdleNode(t *testing.T) {
	snap, v := guardCase(t)
	snap.Jobs = append(snap.Jobs, Job{ID: 2, Running: true, CPUs: 1, Nodes: []string{"n1"}})
	var d policy.Decision
	d.Reset()
	d.PowerOff = append(d.PowerOff, policy.NodeCommand{Node: idOf(t, v, "n1")})
	cmds, refused := (&Guard{}).Translate(&d, v, snap)
	if len(cmds) != 0 || len(refused) != 1 || refused[0].Why != "runs a job" {
		t.Errorf("commands %+v, refused %+v", cmds, refused)
	}
}

func TestBuildStateView(t *testing.T) {
	_, v := guardCase(t)
	// n1..n8 less the unavailable n4, n5: six nodes, in map order.
	var names []string
	for _, n := range v.Nodes {
		names = append(names, n.Name+":"+n.State.String())
	}
	want := []string{"n1:idle", "n2:busy", "n3:off", "n6:idle", "n7:shutting-down", "n8:off"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("view nodes %v, want %v", names, want)
	}
	if v.BusySlots != 4 || v.OffNodes != 2 || v.IdleNodes != 2 || len(v.Running) != 1 || v.Start != 900 {
		t.Errorf("counts busy %d off %d idle %d running %d start %d", v.BusySlots, v.OffNodes, v.IdleNodes, len(v.Running), v.Start)
	}
	if len(v.Recent) != 1 || v.Recent[0].Time != 900 {
		t.Errorf("recent %+v, want the job submitted at 900", v.Recent)
	}
}
