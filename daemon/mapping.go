package daemon

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/slurm"
)

// NodeMap assigns Slurm nodes to the rule set's node groups: one line
// per group, "GROUP HOSTLIST" (e.g. "node node[001-096]"); # starts a
// comment.
type NodeMap struct {
	Groups []MapEntry
}

// MapEntry is one line of a node map.
type MapEntry struct {
	Group string
	Hosts []string
	Line  int
}

// ReadNodeMap reads the node map file at path.
func ReadNodeMap(path string) (*NodeMap, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := ParseNodeMap(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseNodeMap parses a node map. Errors name the line.
func ParseNodeMap(data []byte) (*NodeMap, error) {
	m := &NodeMap{}
	groups := map[string]int{}
	hosts := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d: want \"GROUP HOSTLIST\", got %d fields", line, len(fields))
		}
		if prev, dup := groups[fields[0]]; dup {
			return nil, fmt.Errorf("line %d: group %q already mapped on line %d", line, fields[0], prev)
		}
		names, err := slurm.ExpandHostlist(fields[1])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		for _, h := range names {
			if prev, dup := hosts[h]; dup {
				return nil, fmt.Errorf("line %d: node %s already mapped on line %d", line, h, prev)
			}
			hosts[h] = line
		}
		groups[fields[0]] = line
		m.Groups = append(m.Groups, MapEntry{Group: fields[0], Hosts: names, Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if len(m.Groups) == 0 {
		return nil, fmt.Errorf("no group mapped")
	}
	return m, nil
}

// Assignment is the result of mapping a live cluster onto a rule set.
type Assignment struct {
	// Order lists the managed nodes: group by group in rule-set order,
	// nodes in map (or name) order. It is the node order of the View.
	Order []string
	Group map[string]int // node name → group index in the rule set
	// Counts is the live node count of each group.
	Counts   []int
	Warnings []string
}

// Assign maps the nodes of snap onto the groups of rs by m, or by CPUs
// per node when m is nil (each node goes to the group with its slot
// count; groups of equal slot counts fill in rule-set order). A node
// count that differs from the rule set's, a mapped node Slurm does not
// know, or a CPU count that differs from its group's slots is an error;
// with allowResize a count difference is a warning instead.
func Assign(rs *policy.RuleSet, nodes []Node, m *NodeMap, allowResize bool) (*Assignment, error) {
	a := &Assignment{Group: map[string]int{}, Counts: make([]int, len(rs.Cluster))}
	live := map[string]*Node{}
	for i := range nodes {
		live[nodes[i].Name] = &nodes[i]
	}
	how := "by CPUs per node"
	if m != nil {
		how = "by the node map"
		if err := a.byMap(rs, m, live); err != nil {
			return nil, err
		}
	} else {
		a.byCPUs(rs, nodes, live)
	}
	if err := a.checkCounts(rs, how, allowResize); err != nil {
		return nil, err
	}
	if len(a.Order) == 0 {
		return nil, fmt.Errorf("no Slurm node maps to the rule set's groups (%s)", groupNames(rs))
	}
	return a, nil
}

// byMap assigns the nodes by node map m; live are Slurm's nodes by name.
func (a *Assignment) byMap(rs *policy.RuleSet, m *NodeMap, live map[string]*Node) error {
	for _, e := range m.Groups {
		g := slices.IndexFunc(rs.Cluster, func(g policy.Group) bool { return g.Name == e.Group })
		if g < 0 {
			return fmt.Errorf("node map line %d: group %q is not a group of the rule set (%s)", e.Line, e.Group, groupNames(rs))
		}
		for _, h := range e.Hosts {
			n := live[h]
			if n == nil {
				return fmt.Errorf("node map line %d: node %s is not a node of the Slurm cluster", e.Line, h)
			}
			if n.CPUs != rs.Cluster[g].Slots {
				return fmt.Errorf("node map line %d: node %s has %d CPUs, group %s has %d slots", e.Line, h, n.CPUs, e.Group, rs.Cluster[g].Slots)
			}
			a.add(h, g)
		}
	}
	return nil
}

// byCPUs assigns the nodes in name order each to a group with its CPU
// count as slots, the first such group not yet full (or else the first
// such group); a node of no group's slots is left out with a warning.
func (a *Assignment) byCPUs(rs *policy.RuleSet, nodes []Node, live map[string]*Node) {
	names := make([]string, 0, len(nodes))
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	sort.Strings(names)
	perGroup := make([][]string, len(rs.Cluster))
	for _, h := range names {
		cpus := live[h].CPUs
		g := cpuGroup(rs, perGroup, cpus)
		if g < 0 {
			a.Warnings = append(a.Warnings, fmt.Sprintf("node %s (%d CPUs) matches no group's slots: not managed", h, cpus))
			continue
		}
		perGroup[g] = append(perGroup[g], h)
	}
	for g, hs := range perGroup {
		for _, h := range hs {
			a.add(h, g)
		}
	}
}

// cpuGroup is the group of a node of cpus CPUs: the first group of that
// many slots with fewer nodes in perGroup than its count, else the first
// group of that many slots, else -1.
func cpuGroup(rs *policy.RuleSet, perGroup [][]string, cpus int) int {
	g := -1
	for k := range rs.Cluster {
		if rs.Cluster[k].Slots != cpus {
			continue
		}
		if g < 0 {
			g = k
		}
		if len(perGroup[k]) < rs.Cluster[k].Count {
			return k
		}
	}
	return g
}

// checkCounts checks the groups' node counts against the rule set's,
// mapped how; with allowResize a difference is a warning.
func (a *Assignment) checkCounts(rs *policy.RuleSet, how string, allowResize bool) error {
	var bad []string
	for g := range rs.Cluster {
		if a.Counts[g] != rs.Cluster[g].Count {
			bad = append(bad, fmt.Sprintf("group %s: rule set has %d nodes, Slurm cluster %d", rs.Cluster[g].Name, rs.Cluster[g].Count, a.Counts[g]))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	msg := fmt.Sprintf("the rule set's cluster does not match the Slurm cluster (%s): %s", how, strings.Join(bad, "; "))
	if !allowResize {
		return fmt.Errorf("%s (--allow-resize runs it on the live counts; --nodes-map maps groups to nodes)", msg)
	}
	a.Warnings = append(a.Warnings, msg+": running on the live counts (--allow-resize)")
	return nil
}

func (a *Assignment) add(name string, g int) {
	a.Order = append(a.Order, name)
	a.Group[name] = g
	a.Counts[g]++
}

func groupNames(rs *policy.RuleSet) string {
	var s []string
	for _, g := range rs.Cluster {
		s = append(s, fmt.Sprintf("%s: %d nodes of %d slots", g.Name, g.Count, g.Slots))
	}
	return strings.Join(s, ", ")
}
