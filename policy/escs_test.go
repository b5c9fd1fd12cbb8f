package policy

import (
	"testing"
)

func TestESCS(t *testing.T) {
	const now = 10000
	// Nodes 0 and 1 are off, named so that node 1 comes first by host
	// name; node 2 idle since now−10, node 3 since now−2000, node 4 since
	// now−3000.
	nodes := []node{{state: Off}, {state: Off}, {state: Idle, since: now - 10}}
	names := []string{"node-b", "node-a", "node-c", "node-d", "node-e"}
	tests := []struct {
		name     string
		set      []string
		nodes    []node
		queue    []QueuedJob
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{
			// A phys job waits 100 s; the idle slot covers it, but phys's
			// wait_on is 60: power on one node, first by host name (1).
			name: "group threshold crossed", set: []string{"wait_on@phys=60"}, nodes: nodes,
			queue:  []QueuedJob{{Slots: 1, Submit: now - 100, Group: "phys"}},
			wantOn: []int{1}, wantWake: now + 500,
		},
		{
			// The same job of group chem: default wait_on 1800 not crossed.
			// Off allowed (100 < wait_off 600) but node 2 has idled 10 s
			// only. Wake: wait_off crossed at now+500 first (wait_on at
			// now+1700, node 2 passes idle_off at now+1791).
			name: "default threshold", set: []string{"wait_on@phys=60"}, nodes: nodes,
			queue:    []QueuedJob{{Slots: 1, Submit: now - 100, Group: "chem"}},
			wantWake: now + 500,
		},
		{
			// Wait exactly crosses: at now, phys mean wait 100 = 100 is not
			// above; it is at now+1.
			name: "crossing", set: []string{"wait_on@phys=100", "wait_off=50"}, nodes: nodes,
			queue:    []QueuedJob{{Slots: 1, Submit: now - 100, Group: "phys"}},
			wantWake: now + 1,
		},
		{
			// Groups without thresholds of their own pool with the default:
			// waits 100 and 2000 average 1050 < wait_on 1800: no boot. The
			// pooled wait reaches wait_on at now+750.
			name: "pooled default", set: []string{"wait_on@phys=60"}, nodes: []node{{state: Off}, {state: Off}, {state: Idle, since: now - 10}, {state: Idle, since: now - 10}},
			queue:    []QueuedJob{{Slots: 1, Submit: now - 100, Group: "a"}, {Slots: 1, Submit: now - 2000, Group: "b"}},
			wantWake: now + 750,
		},
		{
			// A 2-slot job lacks a slot: boot by host name.
			name: "job lacks nodes", nodes: nodes,
			queue:  []QueuedJob{{Slots: 2, Submit: now, Group: "chem"}},
			wantOn: []int{1}, wantWake: now + 600,
		},
		{
			// Empty queue: nodes 3 and 4 idle longer than 1800 s; one per
			// cycle, least recently used first (4).
			name: "off LRU", nodes: []node{{state: Off}, {state: Off}, {state: Idle, since: now - 10}, {state: Idle, since: now - 2000}, {state: Idle, since: now - 3000}},
			wantOff: []int{4}, wantWake: now + 60,
		},
		{
			// wait_off@phys=0: a phys job waiting blocks any power-off.
			name: "group blocks off", set: []string{"wait_off@phys=0"},
			nodes:    []node{{state: Idle, since: now - 3000}, {state: Idle, since: now - 3000}},
			queue:    []QueuedJob{{Slots: 1, Submit: now, Group: "phys"}},
			wantWake: now + 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mkView(now, tt.nodes, tt.queue)
			for i := range v.Nodes {
				v.Nodes[i].Name = names[i]
			}
			d := decide(mustNew(t, "escs", tt.set...), v)
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}
