package datasets

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Stats is what "ecotune inspect" reports about a trace. The JSON keys are
// part of the command-line contract.
type Stats struct {
	Name         string `json:"name"`
	Format       string `json:"format"`
	Jobs         int    `json:"jobs"`
	Nodes        int    `json:"nodes"`
	Procs        int    `json:"procs"`
	ProcsPerNode int    `json:"procs_per_node"`
	TimeZone     string `json:"time_zone"`
	TZOffset     int    `json:"tz_offset_s"`
	// First is the first submit time; End the last end (submit + observed
	// wait when known + run); SpanS = End − First, in seconds.
	First int64 `json:"first_submit"`
	End   int64 `json:"last_end"`
	SpanS int64 `json:"span_s"`
	// Utilization is the load the log implies: Σ procs × run over
	// machine procs × span (0 when the machine size is unknown).
	Utilization float64 `json:"utilization"`
	Users       int     `json:"users"`
	// ArrivalsByHour counts submits by hour of day and ArrivalsByWeekday by
	// day of week (0 = Sunday), in the trace's local time (TZOffset).
	ArrivalsByHour    [24]int64 `json:"arrivals_by_hour"`
	ArrivalsByWeekday [7]int64  `json:"arrivals_by_weekday"`
	// Quantiles of job size (processors) and run time (s).
	ProcsQuantiles Quantiles `json:"procs_quantiles"`
	RunQuantiles   Quantiles `json:"run_quantiles"`
	// Unknown counts, per field, the jobs whose value the log did not record.
	Unknown  map[string]int64 `json:"unknown"`
	Skipped  map[string]int64 `json:"skipped"`
	Adjusted map[string]int64 `json:"adjusted"`
	Notes    []string         `json:"notes"`
	// Layout is the machine's nodes by slots per node (each group's hosts
	// as a host list), when the log named the hosts; absent otherwise.
	Layout []LayoutGroup `json:"layout,omitempty"`
}

// Quantiles summarises a distribution by nearest rank: the q-quantile of
// n sorted values is the value at rank ceil(q·n) (1-based).
type Quantiles struct {
	Min  int64   `json:"min"`
	P10  int64   `json:"p10"`
	P25  int64   `json:"p25"`
	P50  int64   `json:"p50"`
	P75  int64   `json:"p75"`
	P90  int64   `json:"p90"`
	P99  int64   `json:"p99"`
	Max  int64   `json:"max"`
	Mean float64 `json:"mean"`
}

// Inspect computes the statistics of t.
func Inspect(t *Trace) *Stats {
	b := newStatsBuilder(t.Meta, len(t.Jobs))
	for i := range t.Jobs {
		b.add(&t.Jobs[i])
	}
	return b.finish()
}

// InspectFile computes the statistics of the trace at path, as Inspect of
// Open(path, opt) would. A canonical Parquet trace streams: memory holds
// 12 bytes a job (the job sizes and run times the quantiles need), not
// the jobs; a raw log is read whole, as Open reads it.
func InspectFile(path string, opt ReadOptions) (*Stats, error) {
	isParquet, err := isParquetFile(path)
	if err != nil {
		return nil, err
	}
	if !isParquet || opt.Format != "" {
		t, err := Open(path, opt)
		if err != nil {
			return nil, err
		}
		return Inspect(t), nil
	}
	var b *statsBuilder
	err = ScanParquetFile(path, func(m Meta, rows int64) error {
		b = newStatsBuilder(m, int(min(rows, fileSize(path))))
		return nil
	}, func(batch []Job) error {
		for i := range batch {
			b.add(&batch[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// fileSize is the size of the file at path, or 0.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// statsBuilder computes Stats job by job, keeping of each job only its
// size and run time (for the quantiles).
type statsBuilder struct {
	s     *Stats
	m     Meta
	procs []int32
	runs  []int64
	users map[string]struct{}
	work  float64
}

func newStatsBuilder(m Meta, jobs int) *statsBuilder {
	return &statsBuilder{
		s: &Stats{
			Name: m.Name, Format: m.Format,
			Nodes: m.Nodes, Procs: m.Procs, ProcsPerNode: m.ProcsPerNode,
			Layout:   slices.Clone(m.Layout),
			TimeZone: m.TimeZone, TZOffset: m.TZOffset,
			Unknown:  map[string]int64{},
			Skipped:  orEmptyCounts(m.Skipped),
			Adjusted: orEmptyCounts(m.Adjusted),
			Notes:    orEmptyStrings(m.Notes),
		},
		m:     m,
		procs: make([]int32, 0, jobs),
		runs:  make([]int64, 0, jobs),
		users: map[string]struct{}{},
	}
}

func (b *statsBuilder) add(j *Job) {
	s := b.s
	if s.Jobs == 0 {
		s.First, s.End = j.Submit, math.MinInt64
	}
	s.Jobs++
	b.procs = append(b.procs, j.Procs)
	b.runs = append(b.runs, j.Run)
	b.work += float64(j.Procs) * float64(j.Run)
	s.First = min(s.First, j.Submit)
	s.End = max(s.End, jobEnd(*j))
	local := j.Submit + int64(b.m.TZOffset)
	s.ArrivalsByHour[floorMod(local, 86400)/3600]++
	s.ArrivalsByWeekday[(floorDiv(local, 86400)+4)%7]++ // 1 Jan 1970 was a Thursday
	if _, ok := b.users[j.User]; !ok {
		b.users[j.User] = struct{}{}
	}
	s.countUnknown(*j)
}

func (b *statsBuilder) finish() *Stats {
	s := b.s
	if s.Jobs == 0 {
		return s
	}
	delete(b.users, "")
	s.Users = len(b.users)
	s.SpanS = s.End - s.First
	if b.m.Procs > 0 && s.SpanS > 0 {
		s.Utilization = b.work / (float64(b.m.Procs) * float64(s.SpanS))
	}
	s.ProcsQuantiles = quantiles(b.procs)
	s.RunQuantiles = quantiles(b.runs)
	return s
}

// jobEnd is when j ended as logged: submit + wait (when known) + run.
func jobEnd(j Job) int64 {
	return j.Submit + max(j.Wait, 0) + j.Run
}

func (s *Stats) countUnknown(j Job) {
	for _, f := range [...]struct {
		name    string
		unknown bool
	}{
		{"wait", j.Wait == Unknown},
		{"req_procs", j.ReqProcs == Unknown},
		{"req_time", j.ReqTime == Unknown},
		{"status", j.Status == Unknown},
		{"user", j.User == ""},
		{"group", j.Group == ""},
		{"queue", j.Queue == ""},
	} {
		if f.unknown {
			s.Unknown[f.name]++
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// quantiles sorts v and summarises it.
func quantiles[T int32 | int64](v []T) Quantiles {
	slices.Sort(v)
	rank := func(q float64) int64 {
		i := int(math.Ceil(q*float64(len(v)))) - 1
		return int64(v[min(max(i, 0), len(v)-1)])
	}
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	return Quantiles{
		Min: int64(v[0]), P10: rank(0.10), P25: rank(0.25), P50: rank(0.50),
		P75: rank(0.75), P90: rank(0.90), P99: rank(0.99), Max: int64(v[len(v)-1]),
		Mean: sum / float64(len(v)),
	}
}

func orEmptyCounts(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return maps.Clone(m)
}

func orEmptyStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

var weekdays = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

// WriteText writes s as an aligned, readable summary.
func (s *Stats) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	zone := Meta{TimeZone: s.TimeZone, TZOffset: s.TZOffset}.Location()
	row := func(k, format string, a ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, a...)...) }
	row("trace", "%s (%s)", s.Name, s.Format)
	row("jobs", "%d", s.Jobs)
	row("machine", "%s", machineSize(Meta{Nodes: s.Nodes, Procs: s.Procs}))
	for _, g := range s.Layout {
		row("nodes", "%d × %d slots: %s", g.Count, g.Slots, g.Hosts)
	}
	if s.Jobs > 0 {
		row("first submit", "%s", time.Unix(s.First, 0).In(zone).Format("2006-01-02 15:04:05 -0700"))
		row("last end", "%s", time.Unix(s.End, 0).In(zone).Format("2006-01-02 15:04:05 -0700"))
		row("span", "%s (%d s)", formatDuration(s.SpanS), s.SpanS)
		row("utilization", "%.1f %% (Σ procs × run / (machine procs × span))", 100*s.Utilization)
		row("users", "%d", s.Users)
		row("job size (procs)", "%s", s.ProcsQuantiles)
		row("run time (s)", "%s", s.RunQuantiles)
		row("arrivals by hour", "%s", joinCounts(s.ArrivalsByHour[:], func(i int) string { return fmt.Sprintf("%02d", i) }))
		row("arrivals by day", "%s", joinCounts(s.ArrivalsByWeekday[:], func(i int) string { return weekdays[i] }))
	}
	row("unknown fields", "%s", formatCountsOrNone(s.Unknown))
	row("skipped", "%d %s", countTotal(s.Skipped), formatCountsOrNone(s.Skipped))
	row("adjusted", "%d %s", countTotal(s.Adjusted), formatCountsOrNone(s.Adjusted))
	for _, n := range s.Notes {
		row("note", "%s", n)
	}
	return tw.Flush()
}

func (q Quantiles) String() string {
	return fmt.Sprintf("min %d  p10 %d  p25 %d  median %d  p75 %d  p90 %d  p99 %d  max %d  mean %.1f",
		q.Min, q.P10, q.P25, q.P50, q.P75, q.P90, q.P99, q.Max, q.Mean)
}

func joinCounts(c []int64, label func(int) string) string {
	parts := make([]string, len(c))
	for i, n := range c {
		parts[i] = fmt.Sprintf("%s:%d", label(i), n)
	}
	return strings.Join(parts, " ")
}

func formatCountsOrNone(m map[string]int64) string {
	if len(m) == 0 {
		return "(none)"
	}
	return formatCounts(m)
}

// formatDuration is "91d 22h 03m".
func formatDuration(s int64) string {
	return fmt.Sprintf("%dd %02dh %02dm", s/86400, s%86400/3600, s%3600/60)
}
