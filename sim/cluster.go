package sim

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"gopkg.in/yaml.v3"
)

// ESCS is the node power model measured for the ESCS paper (Kiertscher et
// al.): standby 2 W, idle 150 W, loaded 230 W on one-slot nodes (+80 W per
// busy slot), power-on 555 s and 13.71 Wh, shutdown 480 s and 10.79 Wh.
var ESCS = policy.NodeModel{
	OffW:       2,
	IdleW:      150,
	BusySlotW:  80,
	BootS:      555,
	BootWh:     13.71,
	ShutdownS:  480,
	ShutdownWh: 10.79,
}

// Models returns the built-in node power models by name.
func Models() map[string]policy.NodeModel {
	return map[string]policy.NodeModel{"escs": ESCS}
}

// ModelNames lists the built-in model names, sorted.
func ModelNames() []string {
	var names []string
	for n := range Models() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Model returns the built-in model called name.
func Model(name string) (policy.NodeModel, error) {
	m, ok := Models()[name]
	if !ok {
		return policy.NodeModel{}, fmt.Errorf("sim: unknown model %q (built in: %s)", name, strings.Join(ModelNames(), ", "))
	}
	return m, nil
}

// Uniform is a cluster of n identical nodes of s slots named node1..node<n>.
func Uniform(n, s int, m policy.NodeModel) Cluster {
	return Cluster{Groups: []NodeGroup{{Name: "node", Count: n, Slots: s, Model: m}}}
}

// ClusterFromTrace builds the cluster a trace's header describes (MaxNodes
// nodes of MaxProcs/MaxNodes slots) with the ESCS power model.
//
// When MaxProcs is not a multiple of MaxNodes (OSC: 178 processors on 57
// nodes) the slots are spread as evenly as possible: MaxProcs mod MaxNodes
// nodes get one slot more than the others (OSC: 7 nodes of 4 slots and 50
// of 3), so the machine keeps exactly MaxProcs slots and MaxNodes nodes.
// With only MaxProcs known each processor is a node; with only MaxNodes
// known each node has one slot. A trace with a node layout (Meta.Layout:
// logs that name the hosts, such as Slurm's) gives one group per layout
// group instead (see clusterFromLayout).
func ClusterFromTrace(m datasets.Meta) (Cluster, error) {
	if len(m.Layout) > 0 {
		return clusterFromLayout(m)
	}
	nodes, procs := m.Nodes, m.Procs
	switch {
	case nodes <= 0 && procs <= 0:
		return Cluster{}, fmt.Errorf("sim: trace %q gives neither MaxNodes nor MaxProcs: describe the cluster with --cluster or --nodes", m.Name)
	case nodes <= 0:
		nodes = procs
	case procs <= 0:
		procs = nodes
	}
	if procs < nodes {
		return Cluster{}, fmt.Errorf("sim: trace %q has fewer processors (%d) than nodes (%d)", m.Name, procs, nodes)
	}
	if err := datasets.CheckMachine(int64(nodes), int64(procs)); err != nil {
		return Cluster{}, fmt.Errorf("sim: trace %q: machine size in the header: %w: describe the cluster with --cluster or --nodes", m.Name, err)
	}
	q, r := procs/nodes, procs%nodes
	c := Cluster{Name: m.Name}
	if r > 0 {
		c.Groups = append(c.Groups, NodeGroup{Name: "fat", Count: r, Slots: q + 1, Model: ESCS})
	}
	c.Groups = append(c.Groups, NodeGroup{Name: "node", Count: nodes - r, Slots: q, Model: ESCS})
	return c, nil
}

// Nodes returns the number of nodes.
func (c Cluster) Nodes() int {
	n := 0
	for _, g := range c.Groups {
		n += g.Count
	}
	return n
}

// Slots returns the number of slots.
func (c Cluster) Slots() int {
	n := 0
	for _, g := range c.Groups {
		n += g.Count * g.Slots
	}
	return n
}

// LoadCluster reads a cluster file, YAML or JSON (JSON is read as the YAML
// subset it is), and validates it. Keys are snake_case; a group's model is
// either a built-in model name or the numbers:
//
//	name: osc
//	groups:
//	  - {name: quad, count: 32, slots: 4, model: escs}
//	  - name: dual
//	    count: 25
//	    slots: 2
//	    gflops: 3.2
//	    model:
//	      off_w: 2
//	      idle_w: 150
//	      busy_w: 0          # extra W when at least one slot is busy
//	      busy_slot_w: 80    # extra W per busy slot
//	      boot_s: 555
//	      boot_wh: 13.71
//	      shutdown_s: 480
//	      shutdown_wh: 10.79
//	      sleep_levels: [{name: suspend, w: 5, enter_s: 10, enter_wh: 0.02, exit_s: 20, exit_wh: 0.5}]
//	      freqs: [{name: nominal, slot_w: 80, speed: 1}, {name: low, slot_w: 50, speed: 0.8}]
func LoadCluster(path string) (Cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Cluster{}, fmt.Errorf("sim: cluster file: %w", err)
	}
	c, err := ParseCluster(data)
	if err != nil {
		return Cluster{}, fmt.Errorf("sim: cluster file %s: %w", path, err)
	}
	return c, nil
}

// ParseCluster reads and validates a cluster description (see LoadCluster).
func ParseCluster(data []byte) (Cluster, error) {
	var f fileCluster
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return Cluster{}, intRangeError(data, err)
	}
	c := Cluster{Name: f.Name, Partitions: f.Partitions}
	for i, g := range f.Groups {
		m, err := g.Model.model()
		if err != nil {
			return Cluster{}, fmt.Errorf("groups[%d].model: %w", i, err)
		}
		c.Groups = append(c.Groups, NodeGroup{Name: g.Name, Count: g.Count, Slots: g.Slots, GFLOPS: g.GFLOPS, Model: m})
	}
	if err := c.Validate(); err != nil {
		return Cluster{}, err
	}
	return c, nil
}

// intRangeError rewrites yaml's error for an integer too large for any
// field ("cannot unmarshal !!int `9223372...` into int") as out of range,
// naming the line, the field's path and the limit; other errors are
// returned as they are.
func intRangeError(data []byte, err error) error {
	var te *yaml.TypeError
	var root yaml.Node
	if !errors.As(err, &te) || yaml.Unmarshal(data, &root) != nil {
		return err
	}
	bad, path := bigInt(&root, "")
	if bad == nil {
		return err
	}
	return fmt.Errorf("line %d: %s: %s is out of range: beyond the int64 maximum %d", bad.Line, path, bad.Value, int64(math.MaxInt64))
}

// bigInt finds, depth first, the first whole number of n (at its field
// path at) too large for an int64, and returns it with its path, or nil.
func bigInt(n *yaml.Node, at string) (*yaml.Node, string) {
	switch {
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if bad, path := bigInt(n.Content[i+1], strings.TrimPrefix(at+"."+n.Content[i].Value, ".")); bad != nil {
				return bad, path
			}
		}
	case n.Kind == yaml.DocumentNode || n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			cat := at
			if n.Kind == yaml.SequenceNode {
				cat = fmt.Sprintf("%s[%d]", at, i)
			}
			if bad, path := bigInt(c, cat); bad != nil {
				return bad, path
			}
		}
	case n.Kind == yaml.ScalarNode && beyondInt64(n):
		return n, at
	}
	return nil, ""
}

// beyondInt64 reports whether scalar n is a whole number too large for an
// int64: an int yaml cannot parse, or a whole number yaml calls a float.
func beyondInt64(n *yaml.Node) bool {
	switch n.Tag {
	case "!!int":
		_, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		return err != nil
	case "!!float":
		return strings.Trim(strings.TrimLeft(n.Value, "+-"), "0123456789") == ""
	}
	return false
}

type fileCluster struct {
	Name       string      `yaml:"name"`
	Groups     []fileGroup `yaml:"groups"`
	Partitions []Partition `yaml:"partitions"`
}

type fileGroup struct {
	Name   string    `yaml:"name"`
	Count  int       `yaml:"count"`
	Slots  int       `yaml:"slots"`
	GFLOPS float64   `yaml:"gflops"`
	Model  fileModel `yaml:"model"`
}

// fileModel is a model as a cluster file spells it: a built-in name or
// the numbers.
type fileModel struct {
	Builtin     string
	OffW        float64     `yaml:"off_w"`
	IdleW       float64     `yaml:"idle_w"`
	BusyW       float64     `yaml:"busy_w"`
	BusySlotW   float64     `yaml:"busy_slot_w"`
	BootS       int64       `yaml:"boot_s"`
	BootWh      float64     `yaml:"boot_wh"`
	ShutdownS   int64       `yaml:"shutdown_s"`
	ShutdownWh  float64     `yaml:"shutdown_wh"`
	SleepLevels []fileSleep `yaml:"sleep_levels"`
	Freqs       []fileFreq  `yaml:"freqs"`
}

type fileSleep struct {
	Name    string  `yaml:"name"`
	W       float64 `yaml:"w"`
	EnterS  int64   `yaml:"enter_s"`
	EnterWh float64 `yaml:"enter_wh"`
	ExitS   int64   `yaml:"exit_s"`
	ExitWh  float64 `yaml:"exit_wh"`
}

type fileFreq struct {
	Name  string  `yaml:"name"`
	SlotW float64 `yaml:"slot_w"`
	Speed float64 `yaml:"speed"`
}

func (m *fileModel) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&m.Builtin)
	}
	type plain fileModel // without this method
	return n.Decode((*plain)(m))
}

func (m fileModel) model() (policy.NodeModel, error) {
	if m.Builtin != "" {
		return Model(m.Builtin)
	}
	out := policy.NodeModel{
		OffW: m.OffW, IdleW: m.IdleW, BusyW: m.BusyW, BusySlotW: m.BusySlotW,
		BootS: m.BootS, BootWh: m.BootWh, ShutdownS: m.ShutdownS, ShutdownWh: m.ShutdownWh,
	}
	for _, l := range m.SleepLevels {
		out.SleepLevels = append(out.SleepLevels, policy.SleepLevel(l))
	}
	for _, f := range m.Freqs {
		out.Freqs = append(out.Freqs, policy.FreqLevel(f))
	}
	return out, nil
}

// Validate checks a cluster, its size within the limits (see MaxSpan)
// included; the error names the offending field, e.g.
// "groups[1].model.boot_s: -5 is negative".
func (c Cluster) Validate() error {
	if len(c.Groups) == 0 {
		return errors.New("groups: no node group")
	}
	for i, g := range c.Groups {
		if err := g.validate(); err != nil {
			return fmt.Errorf("groups[%d].%w", i, err)
		}
	}
	if err := checkCluster(c); err != nil {
		return err
	}
	return c.validatePartitions()
}

func (g NodeGroup) validate() error {
	if g.Count < 1 {
		return fmt.Errorf("count: %d must be at least 1", g.Count)
	}
	if g.Slots < 1 {
		return fmt.Errorf("slots: %d must be at least 1", g.Slots)
	}
	if err := nonNegative("gflops", g.GFLOPS); err != nil {
		return err
	}
	if err := validateModel(g.Model); err != nil {
		return fmt.Errorf("model.%w", err)
	}
	return nil
}

func validateModel(m policy.NodeModel) error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"off_w", m.OffW}, {"idle_w", m.IdleW}, {"busy_w", m.BusyW}, {"busy_slot_w", m.BusySlotW},
		{"boot_s", float64(m.BootS)}, {"boot_wh", m.BootWh},
		{"shutdown_s", float64(m.ShutdownS)}, {"shutdown_wh", m.ShutdownWh},
	} {
		if err := nonNegative(f.name, f.v); err != nil {
			return err
		}
	}
	for i, l := range m.SleepLevels {
		for _, f := range []struct {
			name string
			v    float64
		}{
			{"w", l.W}, {"enter_s", float64(l.EnterS)}, {"enter_wh", l.EnterWh},
			{"exit_s", float64(l.ExitS)}, {"exit_wh", l.ExitWh},
		} {
			if err := nonNegative(f.name, f.v); err != nil {
				return fmt.Errorf("sleep_levels[%d].%w", i, err)
			}
		}
	}
	for i, f := range m.Freqs {
		if err := nonNegative("slot_w", f.SlotW); err != nil {
			return fmt.Errorf("freqs[%d].%w", i, err)
		}
		if !(f.Speed > 0) || math.IsInf(f.Speed, 0) {
			return fmt.Errorf("freqs[%d].speed: %v must be positive", i, f.Speed)
		}
	}
	return nil
}

func nonNegative(name string, v float64) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s: %v must be a finite non-negative number", name, v)
	}
	return nil
}

// ClusterSpec says where a replay's cluster comes from: a cluster file,
// or Nodes × SlotsPerNode, or the trace header; with the built-in Model
// (default "escs") unless the file gives its own.
type ClusterSpec struct {
	File         string
	Nodes        int
	SlotsPerNode int
	Model        string
}

// Resolve returns the cluster s describes for a trace with header m.
func (s ClusterSpec) Resolve(m datasets.Meta) (Cluster, error) {
	if s.File != "" {
		if s.Nodes != 0 || s.SlotsPerNode != 0 {
			return Cluster{}, errors.New("sim: give either a cluster file or --nodes/--slots-per-node, not both")
		}
		return LoadCluster(s.File)
	}
	name := s.Model
	if name == "" {
		name = "escs"
	}
	model, err := Model(name)
	if err != nil {
		return Cluster{}, err
	}
	if s.Nodes != 0 || s.SlotsPerNode != 0 {
		slots := max(s.SlotsPerNode, 1)
		if s.Nodes < 1 || s.SlotsPerNode < 0 {
			return Cluster{}, fmt.Errorf("sim: --nodes %d --slots-per-node %d: need at least one node of at least one slot", s.Nodes, s.SlotsPerNode)
		}
		switch {
		case s.Nodes > datasets.MaxNodes:
			return Cluster{}, fmt.Errorf("sim: --nodes %d: more than the limit, %d nodes", s.Nodes, datasets.MaxNodes)
		case slots > datasets.MaxProcs || s.Nodes*slots > datasets.MaxProcs: // no overflow: ≤ 2^20 · 2^24
			return Cluster{}, fmt.Errorf("sim: --nodes %d --slots-per-node %d: more than the limit, %d slots in all", s.Nodes, slots, datasets.MaxProcs)
		}
		return Uniform(s.Nodes, slots, model), nil
	}
	c, err := ClusterFromTrace(m)
	if err != nil {
		return Cluster{}, err
	}
	for i := range c.Groups {
		c.Groups[i].Model = model
	}
	return c, nil
}
