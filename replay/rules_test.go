package replay_test

import (
	"errors"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// TestRulesCluster: a cluster with the rule set's node groups (counts and
// slots) takes its power models and GFLOPS and keeps its names and
// partitions; any other shape is a *ClusterMismatchError describing
// both.
func TestRulesCluster(t *testing.T) {
	model := sim.ESCS
	model.IdleW++
	rs := &policy.RuleSet{Cluster: []policy.Group{{Count: 4, Slots: 8, GFLOPS: 2, Model: model}, {Count: 2, Slots: 1, Model: model}}}
	c := sim.Cluster{Name: "c", Partitions: []sim.Partition{{Name: "p", Groups: []string{"a"}}},
		Groups: []sim.NodeGroup{{Name: "a", Count: 4, Slots: 8, Model: sim.ESCS}, {Name: "b", Count: 2, Slots: 1, Model: sim.ESCS}}}
	for _, tc := range []struct {
		name          string
		groups        []sim.NodeGroup
		wantRS, wantC string // the mismatch's sides; "" for a match
	}{
		{"same shape", c.Groups, "", ""},
		{"another count", []sim.NodeGroup{{Count: 5, Slots: 8}, {Count: 2, Slots: 1}}, "4 × 8 slots + 2 × 1 slots", "5 × 8 slots + 2 × 1 slots"},
		{"one group", []sim.NodeGroup{{Count: 6, Slots: 8}}, "4 × 8 slots + 2 × 1 slots", "6 × 8 slots"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := c
			in.Groups = tc.groups
			got, err := replay.RulesCluster(rs, in)
			var me *replay.ClusterMismatchError
			if tc.wantRS != "" {
				if !errors.As(err, &me) || me.RuleSet != tc.wantRS || me.Cluster != tc.wantC {
					t.Fatalf("error %v, want a mismatch %q vs %q", err, tc.wantRS, tc.wantC)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "c" || len(got.Partitions) != 1 || got.Groups[0].Name != "a" || got.Groups[0].GFLOPS != 2 {
				t.Errorf("cluster %+v: want c's names and partitions, the rule set's GFLOPS", got)
			}
			for i, g := range got.Groups {
				if g.Model.IdleW != model.IdleW {
					t.Errorf("group %d: model %+v, want the rule set's", i, g.Model)
				}
			}
			if c.Groups[0].Model.IdleW != sim.ESCS.IdleW {
				t.Error("the input cluster changed")
			}
		})
	}
}
