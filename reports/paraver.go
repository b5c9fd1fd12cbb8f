package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// Paraver is a node-state trace in the Paraver format (BSC), as the ESCS
// simulator wrote them: one application whose task i is node i, each node
// on its own CPU, its power state as a state record over time.
type Paraver struct {
	PRV []byte // header and state records, sorted by begin time
	PCF []byte // state names and colours
	ROW []byte // node names for CPUs, nodes and threads
}

// NewParaver builds the Paraver trace of tl's node states over [from,
// to). Times are nanoseconds since from; the header date is from (UTC),
// so the same timeline always gives the same bytes.
func NewParaver(tl *sim.Timeline, from, to int64) (*Paraver, error) {
	if from >= to {
		return nil, fmt.Errorf("reports: paraver: empty window [%d, %d)", from, to)
	}
	n := len(tl.NodeNames)
	if n == 0 {
		return nil, fmt.Errorf("reports: paraver: timeline has no node")
	}
	ivs := nodeIntervals(tl, from, to)
	slices.SortStableFunc(ivs, func(a, b interval) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Node, b.Node))
	})
	var prv bytes.Buffer
	prv.Grow(48 * (len(ivs) + 1))
	writeParaverHeader(&prv, n, from, to)
	line := make([]byte, 0, 64)
	for _, iv := range ivs {
		// 1:cpu:appl:task:thread:begin:end:state
		cpu := int64(iv.Node) + 1
		line = append(line[:0], "1:"...)
		line = strconv.AppendInt(line, cpu, 10)
		line = append(line, ":1:"...)
		line = strconv.AppendInt(line, cpu, 10)
		line = append(line, ":1:"...)
		line = strconv.AppendInt(line, nanos(iv.From-from), 10)
		line = append(line, ':')
		line = strconv.AppendInt(line, nanos(iv.To-from), 10)
		line = append(line, ':')
		line = strconv.AppendInt(line, int64(iv.State), 10)
		line = append(line, '\n')
		prv.Write(line)
	}
	return &Paraver{PRV: prv.Bytes(), PCF: paraverPCF(), ROW: paraverROW(tl.NodeNames)}, nil
}

func nanos(s int64) int64 { return s * int64(time.Second) }

// writeParaverHeader writes
// #Paraver (dd/mm/yyyy at hh:mm):ftime_ns:N(1,...,1):1:N(1:1,...,1:N)
// – N nodes of one CPU each, one application of N single-thread tasks,
// task i on node i.
func writeParaverHeader(b *bytes.Buffer, n int, from, to int64) {
	date := time.Unix(from, 0).UTC().Format("02/01/2006 at 15:04")
	fmt.Fprintf(b, "#Paraver (%s):%d_ns:%d(", date, nanos(to-from), n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('1')
	}
	fmt.Fprintf(b, "):1:%d(", n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "1:%d", i+1)
	}
	b.WriteString(")\n")
}

func paraverPCF() []byte {
	var b bytes.Buffer
	b.WriteString(`DEFAULT_OPTIONS

LEVEL               THREAD
UNITS               NANOSEC
LOOK_BACK           100
SPEED               1
FLAG_ICONS          ENABLED
NUM_OF_STATE_COLORS 1000
YMAX_SCALE          37


DEFAULT_SEMANTIC

THREAD_FUNC          State As Is


STATES
`)
	for s := policy.Off; s <= policy.ShuttingDown; s++ {
		fmt.Fprintf(&b, "%d    %s\n", s, s)
	}
	b.WriteString("\n\nSTATES_COLOR\n")
	for s := policy.Off; s <= policy.ShuttingDown; s++ {
		c := StateColors[s]
		fmt.Fprintf(&b, "%d    {%d,%d,%d}\n", s, c.R, c.G, c.B)
	}
	return b.Bytes()
}

func paraverROW(names []string) []byte {
	var b bytes.Buffer
	for i, level := range []string{"CPU", "NODE", "THREAD"} {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "LEVEL %s SIZE %d\n", level, len(names))
		for _, n := range names {
			b.WriteString(n)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
