package sim_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ecotune/ecotune/sim"
)

// TestTimelineCSV records the boot-delay case of TestHandWorked (see there
// for the times) and compares its timeline with the hand-written one.
// Host names count from 1: node1 is node 0.
func TestTimelineCSV(t *testing.T) {
	tr := makeTrace(job{0, 30, 1, 0}, job{400, 100, 2, 0})
	r, err := sim.Run(tr, sim.Uniform(2, 1, simple), offWhenIdle{timeout: 60}, sim.Options{Period: 60, Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Timeline.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	const want = `time,kind,node,state,level,requested,powered,busy
0,node,node1,busy,0,0,0,0
0,slots,,,0,1,2,1
30,node,node1,idle,0,0,0,0
30,slots,,,0,0,2,0
60,node,node2,shutting-down,0,0,0,0
60,slots,,,0,0,1,0
110,node,node2,off,0,0,0,0
120,node,node1,shutting-down,0,0,0,0
120,slots,,,0,0,0,0
170,node,node1,off,0,0,0,0
400,slots,,,0,2,0,0
420,node,node1,booting,0,0,0,0
420,node,node2,booting,0,0,0,0
420,slots,,,0,2,2,0
520,node,node1,idle,0,0,0,0
520,node,node2,idle,0,0,0,0
520,node,node1,busy,0,0,0,0
520,node,node2,busy,0,0,0,0
520,slots,,,0,2,2,2
620,node,node1,idle,0,0,0,0
620,node,node2,idle,0,0,0,0
620,slots,,,0,0,2,0
`
	if got := buf.String(); got != want {
		t.Errorf("timeline:\n%s\nwant:\n%s", got, want)
	}
	path := filepath.Join(t.TempDir(), "tl.parquet")
	if err := sim.WriteTimelineFile(path, r.Timeline, false); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(data, []byte("PAR1")) {
		t.Errorf("parquet file: %v", err)
	}
}
