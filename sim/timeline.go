package sim

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/internal/atomicfile"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// TimelineRow is one row of a timeline file: either a node-state change
// (Kind "node": Node, State, Level) or a step of the slot counts (Kind
// "slots": Requested, Powered, Busy). Rows are in time order, changes
// before the step of the same time.
//
// Time is an instant, Unix seconds (UTC) here and in the CSV and JSON;
// the Parquet file holds it as TIMESTAMP(MILLIS) adjusted to UTC, which
// DuckDB and pandas read as a time (read it back with
// ReadTimelineParquet). Level is the node's sleep or frequency level
// index; Requested, Powered and Busy count slots. The columns, in order:
// time, kind, node, state, level, requested, powered, busy.
type TimelineRow struct {
	Time      int64  `json:"time"`
	Kind      string `json:"kind"`
	Node      string `json:"node"`
	State     string `json:"state"`
	Level     int32  `json:"level"`
	Requested int64  `json:"requested"`
	Powered   int64  `json:"powered"`
	Busy      int64  `json:"busy"`
}

// timelineParquetRow is TimelineRow as the Parquet timeline holds it:
// the same columns, time in milliseconds as TIMESTAMP(MILLIS, UTC)
// (unixMillis).
type timelineParquetRow struct {
	Time      int64  `parquet:"time,timestamp(millisecond:utc)"`
	Kind      string `parquet:"kind,dict"`
	Node      string `parquet:"node,dict"`
	State     string `parquet:"state,dict"`
	Level     int32  `parquet:"level"`
	Requested int64  `parquet:"requested"`
	Powered   int64  `parquet:"powered"`
	Busy      int64  `parquet:"busy"`
}

// row is the TimelineRow p holds, or "time" when its time is not whole
// seconds.
func (p *timelineParquetRow) row() (TimelineRow, string) {
	r := TimelineRow(*p)
	var ok bool
	if r.Time, ok = unixSeconds(p.Time); !ok {
		return r, "time"
	}
	return r, ""
}

var timelineHeader = []string{"time", "kind", "node", "state", "level", "requested", "powered", "busy"}

// Rows merges the changes and steps into one time-ordered table.
func (tl *Timeline) Rows() []TimelineRow {
	rows := make([]TimelineRow, 0, len(tl.Changes)+len(tl.Steps))
	c, s := 0, 0
	for c < len(tl.Changes) || s < len(tl.Steps) {
		if c < len(tl.Changes) && (s == len(tl.Steps) || tl.Changes[c].Time <= tl.Steps[s].Time) {
			ch := tl.Changes[c]
			rows = append(rows, TimelineRow{Time: ch.Time, Kind: "node", Node: tl.NodeNames[ch.Node], State: ch.State.String(), Level: int32(ch.Level)})
			c++
			continue
		}
		st := tl.Steps[s]
		rows = append(rows, TimelineRow{Time: st.Time, Kind: "slots", Requested: int64(st.Requested), Powered: int64(st.Powered), Busy: int64(st.Busy)})
		s++
	}
	return rows
}

// WriteCSV writes the timeline as CSV with a header line.
func (tl *Timeline) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(timelineHeader, ",") + "\n")
	var buf []byte
	for _, r := range tl.Rows() {
		buf = strconv.AppendInt(buf[:0], r.Time, 10)
		buf = append(buf, ',')
		buf = append(buf, r.Kind...)
		buf = append(buf, ',')
		buf = append(buf, r.Node...)
		buf = append(buf, ',')
		buf = append(buf, r.State...)
		for _, v := range []int64{int64(r.Level), r.Requested, r.Powered, r.Busy} {
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, v, 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteParquet writes the timeline as a Parquet file: TimelineRow's
// columns, time as TIMESTAMP(MILLIS) adjusted to UTC (see TimelineRow).
func (tl *Timeline) WriteParquet(w io.Writer) error {
	rows := tl.Rows()
	pw := parquet.NewGenericWriter[timelineParquetRow](w)
	batch := make([]timelineParquetRow, 0, min(len(rows), jobsBatch))
	for i, r := range rows {
		p := timelineParquetRow(r)
		p.Time = unixMillis(r.Time)
		batch = append(batch, p)
		if len(batch) == cap(batch) || i == len(rows)-1 {
			if _, err := pw.Write(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return pw.Close()
}

// ReadTimelineParquet reads a Parquet timeline (WriteTimelineFile's) back
// into rows, times as Unix seconds again. A file whose time column is not
// TIMESTAMP(MILLIS, UTC) is refused.
func ReadTimelineParquet(path string) ([]TimelineRow, error) {
	return readParquetRows(path, []string{"time"}, (*timelineParquetRow).row)
}

// ErrExists is returned when an output file exists and force is not set.
var ErrExists = errors.New("output exists (use --force to replace it)")

// WriteTimelineFile writes tl to path, as Parquet when path ends in
// .parquet and CSV otherwise, atomically (a temporary file in the same
// directory renamed over path); an existing path is replaced only with
// force.
func WriteTimelineFile(path string, tl *Timeline, force bool) (err error) {
	if tl == nil {
		return errors.New("sim: no timeline recorded (Options.Timeline)")
	}
	if !force {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("sim: timeline %s: %w", path, ErrExists)
		}
	}
	err = atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		if strings.EqualFold(filepath.Ext(path), ".parquet") {
			return tl.WriteParquet(w)
		}
		return tl.WriteCSV(w)
	})
	if err != nil {
		return fmt.Errorf("sim: timeline %s: %w", path, err)
	}
	return nil
}
