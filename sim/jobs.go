package sim

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/atomicfile"
)

// Placement is where one job ran: Slots[k] of its slots on node Nodes[k]
// (indices into Result.NodeNames), in the order it took them.
type Placement struct {
	Nodes []int32
	Slots []int32
}

// NodeSeconds is the node time the job held: its run time times, over its
// nodes, the share of each node's slots it held (a job alone on whole
// nodes holds one node-second per node per second).
func (p Placement) NodeSeconds(run int64, nodeSlots []int32) float64 {
	var share float64
	for k, i := range p.Nodes {
		share += float64(p.Slots[k]) / float64(nodeSlots[i])
	}
	return share * float64(run)
}

// preparePlacements makes r's placement records (Options.JobNodes).
func (s *Simulator) preparePlacements(r *Result) {
	r.Placements = make([]Placement, len(s.jobs))
	r.NodeNames = append([]string(nil), s.names...)
	r.NodeSlots = append([]int32(nil), s.nodeSlots...)
}

// place records that job j starts on al.
func (s *Simulator) place(j int32, al *allocation) {
	p := &s.st.res.Placements[j]
	p.Nodes = make([]int32, len(al.nodes))
	for k, i := range al.nodes {
		p.Nodes[k] = int32(i)
	}
	p.Slots = append([]int32(nil), al.counts...)
}

// JobRow is one row of a per-job file: what happened to one job.
// Partition is the job's partition in the log, or its queue, or
// "default"; Nodes the host names it ran on, separated by spaces.
type JobRow struct {
	JobID     int64  `parquet:"job_id" json:"job_id"`
	User      string `parquet:"user,dict" json:"user"`
	Group     string `parquet:"group,dict" json:"group"`
	Partition string `parquet:"partition,dict" json:"partition"`
	Submit    int64  `parquet:"submit" json:"submit"`
	Start     int64  `parquet:"start" json:"start"`
	End       int64  `parquet:"end" json:"end"`
	WaitS     int64  `parquet:"wait_s" json:"wait_s"`
	RunS      int64  `parquet:"run_s" json:"run_s"`
	Slots     int64  `parquet:"slots" json:"slots"`
	Nodes     string `parquet:"nodes" json:"nodes"`
}

var jobsHeader = []string{"job_id", "user", "group", "partition", "submit", "start", "end", "wait_s", "run_s", "slots", "nodes"}

// DefaultPartition names the partition of a job whose log names none.
const DefaultPartition = "default"

// JobPartition is the partition a job is counted in: its log's
// partition, else its queue, else DefaultPartition.
func JobPartition(j *datasets.Job) string {
	switch {
	case j.Partition != "":
		return j.Partition
	case j.Queue != "":
		return j.Queue
	}
	return DefaultPartition
}

// PartitionOf is the partition job i of r (tr.Jobs[i], j) is counted
// in: its cluster partition when the replay had partitions
// (Result.JobPartition), else JobPartition(j).
func (r *Result) PartitionOf(i int, j *datasets.Job) string {
	if r.JobPartition != nil {
		return r.Partitions[r.JobPartition[i]].Name
	}
	return JobPartition(j)
}

// JobRows joins a replay of tr with the trace's jobs, in trace order.
// Nodes is empty unless the replay recorded placements (Options.JobNodes).
func JobRows(tr *datasets.Trace, r *Result) ([]JobRow, error) {
	if len(r.Jobs) != len(tr.Jobs) {
		return nil, fmt.Errorf("sim: %d job records for a trace of %d jobs", len(r.Jobs), len(tr.Jobs))
	}
	rows := make([]JobRow, len(r.Jobs))
	var b strings.Builder
	for i, rec := range r.Jobs {
		j := &tr.Jobs[i]
		b.Reset()
		if r.Placements != nil {
			for k, n := range r.Placements[i].Nodes {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(r.NodeNames[n])
			}
		}
		rows[i] = JobRow{
			JobID: rec.ID, User: j.User, Group: j.Group, Partition: r.PartitionOf(i, j),
			Submit: rec.Submit, Start: rec.Start, End: rec.End, WaitS: rec.Start - rec.Submit, RunS: rec.End - rec.Start,
			Slots: int64(rec.Slots), Nodes: b.String(),
		}
	}
	return rows, nil
}

// WriteJobsCSV writes rows as CSV with a header line (RFC 4180 quoting
// of fields that need it).
func WriteJobsCSV(w io.Writer, rows []JobRow) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(jobsHeader, ",") + "\n")
	var buf []byte
	for _, r := range rows {
		buf = strconv.AppendInt(buf[:0], r.JobID, 10)
		for _, f := range []string{r.User, r.Group, r.Partition} {
			buf = append(buf, ',')
			buf = appendCSVField(buf, f)
		}
		for _, v := range []int64{r.Submit, r.Start, r.End, r.WaitS, r.RunS, r.Slots} {
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, v, 10)
		}
		buf = append(buf, ',')
		buf = appendCSVField(buf, r.Nodes)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendCSVField appends f, quoted when it holds a comma, a quote or a
// line break.
func appendCSVField(buf []byte, f string) []byte {
	if !strings.ContainsAny(f, ",\"\r\n") {
		return append(buf, f...)
	}
	buf = append(buf, '"')
	buf = append(buf, strings.ReplaceAll(f, `"`, `""`)...)
	return append(buf, '"')
}

// WriteJobsParquet writes rows as a Parquet file of JobRow.
func WriteJobsParquet(w io.Writer, rows []JobRow) error {
	pw := parquet.NewGenericWriter[JobRow](w)
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

// WriteJobsFile writes rows to path, as Parquet when path ends in
// .parquet and CSV otherwise, atomically; an existing path is replaced
// only with force.
func WriteJobsFile(path string, rows []JobRow, force bool) error {
	if !force {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("sim: jobs file %s: %w", path, ErrExists)
		}
	}
	err := atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		if strings.EqualFold(filepath.Ext(path), ".parquet") {
			return WriteJobsParquet(w, rows)
		}
		return WriteJobsCSV(w, rows)
	})
	if err != nil {
		return fmt.Errorf("sim: jobs file %s: %w", path, err)
	}
	return nil
}
