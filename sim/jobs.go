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
//
// Submit, Start and End are instants, Unix seconds (UTC) here and in the
// CSV and JSON; the Parquet file holds them as TIMESTAMP(MILLIS) adjusted
// to UTC, which DuckDB and pandas read as times (write it with
// WriteJobsParquet or WriteJobsFile, read it back with ReadJobsParquet).
// WaitS (Start − Submit) and RunS (End − Start) are durations in seconds,
// integers in every format; Slots is a count. The columns, in order:
// job_id, user, group, partition, submit, start, end, wait_s, run_s,
// slots, nodes.
type JobRow struct {
	JobID     int64  `json:"job_id"`
	User      string `json:"user"`
	Group     string `json:"group"`
	Partition string `json:"partition"`
	Submit    int64  `json:"submit"`
	Start     int64  `json:"start"`
	End       int64  `json:"end"`
	WaitS     int64  `json:"wait_s"`
	RunS      int64  `json:"run_s"`
	Slots     int64  `json:"slots"`
	Nodes     string `json:"nodes"`
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
	if r.NumJobs() != len(tr.Jobs) {
		return nil, fmt.Errorf("sim: %d job records for a trace of %d jobs", r.NumJobs(), len(tr.Jobs))
	}
	rows := make([]JobRow, r.NumJobs())
	var b strings.Builder
	for i := range rows {
		j := &tr.Jobs[i]
		rows[i] = jobRow(r, i, j.User, j.Group, r.PartitionOf(i, j), &b)
	}
	return rows, nil
}

// jobRow is the row of job i of replay r, whose names are given.
func jobRow(r *Result, i int, user, group, partition string, b *strings.Builder) JobRow {
	rec := r.Job(i)
	b.Reset()
	if r.Placements != nil {
		for k, n := range r.Placements[i].Nodes {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(r.NodeNames[n])
		}
	}
	return JobRow{
		JobID: rec.ID, User: user, Group: group, Partition: partition,
		Submit: rec.Submit, Start: rec.Start, End: rec.End, WaitS: rec.Start - rec.Submit, RunS: rec.End - rec.Start,
		Slots: int64(rec.Slots), Nodes: b.String(),
	}
}

// WriteResultJobsFile writes to path what WriteJobsFile writes of
// JobRows, for a replay r by s (whose jobs name the rows' user, group
// and partition), making the rows a batch at a time: memory does not grow
// with the trace.
func WriteResultJobsFile(path string, s *Simulator, r *Result, force bool) error {
	if r.NumJobs() != len(s.jobs) {
		return fmt.Errorf("sim: %d job records for a trace of %d jobs", r.NumJobs(), len(s.jobs))
	}
	var b strings.Builder
	rows := func(i int, row *JobRow) {
		nm := s.JobNames(i)
		part := NamesPartition(nm)
		if r.JobPartition != nil {
			part = r.Partitions[r.JobPartition[i]].Name
		}
		*row = jobRow(r, i, nm.User, nm.Group, part, &b)
	}
	return writeJobsFile(path, len(s.jobs), rows, force)
}

// NamesPartition is JobPartition of a job with these names.
func NamesPartition(nm *datasets.JobNames) string {
	switch {
	case nm.Partition != "":
		return nm.Partition
	case nm.Queue != "":
		return nm.Queue
	}
	return DefaultPartition
}

// WriteJobsCSV writes rows as CSV with a header line (RFC 4180 quoting
// of fields that need it).
func WriteJobsCSV(w io.Writer, rows []JobRow) error {
	return writeJobsCSV(w, len(rows), func(i int, r *JobRow) { *r = rows[i] })
}

// writeJobsCSV is WriteJobsCSV of n rows, row i made by row.
func writeJobsCSV(w io.Writer, n int, row func(int, *JobRow)) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(jobsHeader, ",") + "\n")
	var buf []byte
	var r JobRow
	for i := range n {
		row(i, &r)
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

// WriteJobsParquet writes rows as a Parquet file: JobRow's columns, with
// submit, start and end as TIMESTAMP(MILLIS) adjusted to UTC (see
// JobRow).
func WriteJobsParquet(w io.Writer, rows []JobRow) error {
	return writeJobsParquet(w, len(rows), func(i int, r *JobRow) { *r = rows[i] })
}

// writeJobsParquet is WriteJobsParquet of n rows, row i made by row,
// handed to the writer a batch at a time.
func writeJobsParquet(w io.Writer, n int, row func(int, *JobRow)) error {
	pw := parquet.NewGenericWriter[jobParquetRow](w)
	batch := make([]jobParquetRow, 0, min(n, jobsBatch))
	var r JobRow
	for i := range n {
		row(i, &r)
		batch = append(batch, r.parquetRow())
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := pw.Write(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return pw.Close()
}

// ReadJobsParquet reads a Parquet jobs file (WriteJobsFile's) back into
// rows, its times as Unix seconds again. A file whose submit, start or end
// is not TIMESTAMP(MILLIS, UTC) is refused, naming the column.
func ReadJobsParquet(path string) ([]JobRow, error) {
	return readParquetRows(path, []string{"submit", "start", "end"}, (*jobParquetRow).row)
}

// jobParquetRow is JobRow as the Parquet jobs file holds it: the same
// columns, submit, start and end in milliseconds as TIMESTAMP(MILLIS,
// UTC) (unixMillis).
type jobParquetRow struct {
	JobID     int64  `parquet:"job_id"`
	User      string `parquet:"user,dict"`
	Group     string `parquet:"group,dict"`
	Partition string `parquet:"partition,dict"`
	Submit    int64  `parquet:"submit,timestamp(millisecond:utc)"`
	Start     int64  `parquet:"start,timestamp(millisecond:utc)"`
	End       int64  `parquet:"end,timestamp(millisecond:utc)"`
	WaitS     int64  `parquet:"wait_s"`
	RunS      int64  `parquet:"run_s"`
	Slots     int64  `parquet:"slots"`
	Nodes     string `parquet:"nodes"`
}

// parquetRow is r as the Parquet file holds it.
func (r *JobRow) parquetRow() jobParquetRow {
	p := jobParquetRow(*r)
	p.Submit, p.Start, p.End = unixMillis(r.Submit), unixMillis(r.Start), unixMillis(r.End)
	return p
}

// row is the JobRow p holds, or the name of a time column that is not
// whole seconds.
func (p *jobParquetRow) row() (JobRow, string) {
	r := JobRow(*p)
	var ok bool
	if r.Submit, ok = unixSeconds(p.Submit); !ok {
		return r, "submit"
	}
	if r.Start, ok = unixSeconds(p.Start); !ok {
		return r, "start"
	}
	if r.End, ok = unixSeconds(p.End); !ok {
		return r, "end"
	}
	return r, ""
}

// jobsBatch is how many rows writeJobsParquet (and Timeline.WriteParquet)
// hand the writer at a time.
const jobsBatch = 4096

// WriteJobsFile writes rows to path, as Parquet when path ends in
// .parquet and CSV otherwise, atomically; an existing path is replaced
// only with force.
func WriteJobsFile(path string, rows []JobRow, force bool) error {
	return writeJobsFile(path, len(rows), func(i int, r *JobRow) { *r = rows[i] }, force)
}

// writeJobsFile is WriteJobsFile of n rows, row i made by row.
func writeJobsFile(path string, n int, row func(int, *JobRow), force bool) error {
	if !force {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("sim: jobs file %s: %w", path, ErrExists)
		}
	}
	err := atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		if strings.EqualFold(filepath.Ext(path), ".parquet") {
			return writeJobsParquet(w, n, row)
		}
		return writeJobsCSV(w, n, row)
	})
	if err != nil {
		return fmt.Errorf("sim: jobs file %s: %w", path, err)
	}
	return nil
}
