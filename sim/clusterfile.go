package sim

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"gopkg.in/yaml.v3"
)

// clusterFromLayout builds the cluster of a trace's node layout: one
// group per layout group (same slots per node), in the layout's order,
// with the ESCS power model. A single group is named "node" (hosts
// node1, node2, ...), several "node<slots>c-" (node32c-01, ...).
func clusterFromLayout(m datasets.Meta) (Cluster, error) {
	c := Cluster{Name: m.Name}
	for i, g := range m.Layout {
		if g.Count < 1 || g.Slots < 1 {
			return Cluster{}, fmt.Errorf("sim: trace %q: layout[%d]: %d nodes of %d slots: need at least one node of one slot", m.Name, i, g.Count, g.Slots)
		}
		name := "node"
		if len(m.Layout) > 1 {
			name = fmt.Sprintf("node%dc-", g.Slots)
		}
		c.Groups = append(c.Groups, NodeGroup{Name: name, Count: g.Count, Slots: g.Slots, Model: ESCS})
	}
	return c, nil
}

// MarshalCluster returns c as a cluster file LoadCluster reads back to c:
// JSON when asJSON is set, else YAML, with every group's power model
// written out as numbers for the user to edit. The YAML starts with head
// (each line a comment) and has groupNotes[i], when not empty, as a
// comment above group i; JSON has no comments.
func MarshalCluster(c Cluster, asJSON bool, head string, groupNotes []string) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	js, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	if asJSON {
		return append(js, '\n'), nil
	}
	// JSON is YAML: read it as a node tree (keeping the keys' order) and
	// write it in block style.
	var doc yaml.Node
	if err := yaml.Unmarshal(js, &doc); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	blockStyle(&doc)
	root := doc.Content[0]
	root.HeadComment = strings.TrimSpace(head)
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "groups" {
			continue
		}
		for g, item := range root.Content[i+1].Content {
			if g < len(groupNotes) {
				item.HeadComment = groupNotes[g]
			}
		}
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	return []byte(b.String()), nil
}

// blockStyle clears the flow and quoting styles JSON gave n and its
// children (the encoder quotes strings where YAML needs it).
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
