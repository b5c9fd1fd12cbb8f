package daemon

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

func TestParseNodeMap(t *testing.T) {
	m, err := ParseNodeMap([]byte("# groups\nnode node[01-03]  # three\n\nbig fat[1-2],gpu7\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []MapEntry{{Group: "node", Hosts: []string{"node01", "node02", "node03"}, Line: 2},
		{Group: "big", Hosts: []string{"fat1", "fat2", "gpu7"}, Line: 4}}
	if !reflect.DeepEqual(m.Groups, want) {
		t.Errorf("%+v, want %+v", m.Groups, want)
	}
	for _, bad := range []struct{ text, msg string }{
		{"node", "line 1: want"},
		{"a n1\na n2\n", "line 2: group \"a\" already mapped on line 1"},
		{"a n[1-2]\nb n2\n", "line 2: node n2 already mapped on line 1"},
		{"a n[2-1]", "line 1:"},
		{"# nothing\n", "no group mapped"},
		{"a b c", "line 1: want"},
	} {
		_, err := ParseNodeMap([]byte(bad.text))
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%q: error %v, want one with %q", bad.text, err, bad.msg)
		}
	}
}

func nodesOf(cpus map[string]int) []Node {
	var out []Node
	for n, c := range cpus {
		out = append(out, Node{Name: n, CPUs: c})
	}
	return out
}

func TestAssign(t *testing.T) {
	rs := &policy.RuleSet{Cluster: []policy.Group{{Name: "small", Count: 2, Slots: 4}, {Name: "big", Count: 1, Slots: 16}}}
	live := nodesOf(map[string]int{"a2": 4, "a1": 4, "b1": 16, "login": 2})
	a, err := Assign(rs, live, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Order, []string{"a1", "a2", "b1"}) || !reflect.DeepEqual(a.Counts, []int{2, 1}) || a.Group["b1"] != 1 {
		t.Errorf("by CPUs: order %v counts %v groups %v", a.Order, a.Counts, a.Group)
	}
	if len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], "login") {
		t.Errorf("warnings %q: want the unmanaged login node", a.Warnings)
	}
	m, _ := ParseNodeMap([]byte("big b1\nsmall a[1-2]\n"))
	a, err = Assign(rs, live, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Order, []string{"b1", "a1", "a2"}) {
		t.Errorf("by map: order %v", a.Order)
	}
	// Mismatches: clear errors, or warnings with allowResize.
	short := nodesOf(map[string]int{"a1": 4, "b1": 16})
	if _, err := Assign(rs, short, nil, false); err == nil || !strings.Contains(err.Error(), "group small: rule set has 2 nodes, Slurm cluster 1") {
		t.Errorf("one node short: %v", err)
	}
	a, err = Assign(rs, short, nil, true)
	if err != nil || !reflect.DeepEqual(a.Counts, []int{1, 1}) || len(a.Warnings) == 0 {
		t.Errorf("allow resize: %v, %+v", err, a)
	}
	for _, tt := range []struct{ m, msg string }{
		{"small a[1-3]\nbig b1", "node a3 is not a node of the Slurm cluster"},
		{"small a1,b1\n", "node b1 has 16 CPUs, group small has 4 slots"},
		{"huge a[1-2]\n", "group \"huge\" is not a group of the rule set"},
	} {
		m, err := ParseNodeMap([]byte(tt.m))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Assign(rs, live, m, true); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%q: %v, want %q", tt.m, err, tt.msg)
		}
	}
}

func FuzzParseNodeMap(f *testing.F) {
	for _, s := range []string{"node node[001-096]\n", "# c\na n1,n[2-3]\nb m[01-02]x[1-2]\n", "a n[1-", "a n[1-2]\na n3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseNodeMap(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range m.Groups {
			if e.Group == "" || len(e.Hosts) == 0 {
				t.Fatalf("empty entry %+v", e)
			}
			for _, h := range e.Hosts {
				if seen[h] {
					t.Fatalf("%s mapped twice", h)
				}
				seen[h] = true
			}
		}
	})
}

// TestAssignEqualSlots checks how nodes by CPUs fill groups of the same
// slot count: in name order, each into the first group not yet full, the
// overflow into the first group.
func TestAssignEqualSlots(t *testing.T) {
	rs := &policy.RuleSet{Cluster: []policy.Group{{Name: "x", Count: 1, Slots: 4}, {Name: "y", Count: 1, Slots: 4}, {Name: "z", Count: 1, Slots: 8}}}
	for _, tt := range []struct {
		nodes  map[string]int
		order  []string
		counts []int
	}{
		{map[string]int{"a2": 4, "a1": 4, "c1": 8}, []string{"a1", "a2", "c1"}, []int{1, 1, 1}},
		{map[string]int{"a3": 4, "a2": 4, "a1": 4, "c1": 8}, []string{"a1", "a3", "a2", "c1"}, []int{2, 1, 1}},
		{map[string]int{"a1": 4, "c2": 8, "c1": 8}, []string{"a1", "c1", "c2"}, []int{1, 0, 2}},
	} {
		a, err := Assign(rs, nodesOf(tt.nodes), nil, true)
		if err != nil {
			t.Fatalf("%v: %v", tt.nodes, err)
		}
		if !reflect.DeepEqual(a.Order, tt.order) || !reflect.DeepEqual(a.Counts, tt.counts) {
			t.Errorf("%v: order %v counts %v, want %v %v", tt.nodes, a.Order, a.Counts, tt.order, tt.counts)
		}
	}
}
