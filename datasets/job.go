package datasets

// Unknown marks a numeric field the log did not record. No field is ever
// silently zero when the log did not say: it is Unknown instead.
const Unknown = -1

// A Job is one job of a trace in canonical form. Times are Unix seconds;
// durations are seconds. Numeric fields the log did not record hold Unknown;
// string fields the log did not record are empty.
type Job struct {
	ID        int64  `parquet:"id"`             // job number in the log (array tasks get their own)
	Submit    int64  `parquet:"submit"`         // submit time, Unix seconds
	Wait      int64  `parquet:"wait"`           // wait the log observed (start − submit), or Unknown
	Run       int64  `parquet:"run"`            // run time, or Unknown
	Procs     int32  `parquet:"procs"`          // processors (slots) used, or Unknown
	ReqProcs  int32  `parquet:"req_procs"`      // processors requested, or Unknown
	ReqTime   int64  `parquet:"req_time"`       // requested wall time, or Unknown
	Status    int32  `parquet:"status"`         // SWF status convention: 1 completed, 0 failed, 5 cancelled, or Unknown
	User      string `parquet:"user,dict"`      // user name or number as text
	Group     string `parquet:"group,dict"`     // group name or number as text
	Queue     string `parquet:"queue,dict"`     // queue or partition
	Partition string `parquet:"partition,dict"` // partition (SWF field 16) when the log has one apart from the queue
}

// Meta describes a trace: where it came from and the machine it ran on.
type Meta struct {
	Name         string // short name, usually the log's base name
	Format       string // source format: swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne, synth
	Sources      []Source
	Nodes        int   // machine nodes, or Unknown
	Procs        int   // machine processors (slots), or Unknown
	ProcsPerNode int   // Procs/Nodes where both are known, or Unknown
	UnixStart    int64 // origin of the log's relative times (SWF UnixStartTime), or Unknown
	TimeZone     string
	TZOffset     int // seconds east of UTC used for hour-of-day features
	StartTime    string
	EndTime      string
	Notes        []string
	// Skipped counts records left out, by reason (lenient mode, documented drops).
	Skipped map[string]int64
	// Adjusted counts records kept but changed by a documented rule, by rule.
	Adjusted map[string]int64
	// Layout is the machine's nodes grouped by slots, when the log names
	// the hosts jobs ran on (Slurm, PBS/TORQUE, SGE/UGE); then Nodes and
	// Procs are its totals. Nil for logs that do not (SWF, ...) and for
	// traces written before layouts existed.
	Layout []LayoutGroup `json:",omitempty"`
	// Reservations are the log's advance reservations (OAR's
	// reservation field), by start; nil for logs that record none.
	Reservations []Reservation `json:",omitempty"`
}

// A Reservation is an advance reservation: Procs slots held for job
// JobID over [Start, End) (its start and walltime). The job is in the
// trace, submitted at Start.
type Reservation struct {
	JobID      int64
	Start, End int64
	Procs      int32
}

// A Source is one input file of a trace.
type Source struct {
	Path   string
	SHA256 string
}

// A Trace is a canonical workload: metadata plus jobs sorted by submit time
// (ties by ID).
type Trace struct {
	Meta Meta
	Jobs []Job
}
