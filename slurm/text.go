package slurm

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseScontrolNodes reads `scontrol show node -o` output, one node per
// line of Key=Value fields, written with SLURM_TIME_FORMAT=%s so times are
// Unix seconds (other time formats leave the times zero). Values with spaces
// (OS=, Reason=) are kept whole; Reason's "[user@time]" suffix is dropped.
// An error names the line and the field.
func ParseScontrolNodes(data []byte) ([]Node, error) {
	var out []Node
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "No nodes") {
			continue
		}
		n, err := scontrolNode(scontrolFields(text), line)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scontrol show node: line %d: %v", line+1, err)
	}
	return out, nil
}

// scontrolNode builds the node described by the fields f of line line.
func scontrolNode(f map[string]string, line int) (Node, error) {
	name := f["NodeName"]
	if name == "" {
		return Node{}, fmt.Errorf("scontrol show node: line %d: no NodeName= field", line)
	}
	st, ok := f["State"]
	if !ok {
		return Node{}, fmt.Errorf("scontrol show node: line %d (%s): no State= field", line, name)
	}
	n := Node{Name: name, State: ParseScontrolState(st), Hostname: f["NodeHostName"], Address: f["NodeAddr"]}
	if err := n.readCounts(f); err != nil {
		return Node{}, fmt.Errorf("scontrol show node: line %d (%s): %v", line, name, err)
	}
	n.Partitions = nodePartitions(f["Partitions"])
	n.Reason = nodeReason(f["Reason"])
	n.BootTime = textTime(f["BootTime"])
	n.SlurmdStartTime = textTime(f["SlurmdStartTime"])
	n.LastBusy = textTime(f["LastBusyTime"])
	return n, nil
}

// readCounts reads the node's CPU counts and port from the fields f.
func (n *Node) readCounts(f map[string]string) error {
	var err error
	if n.CPUs, err = textInt(f, "CPUTot"); err != nil {
		return err
	}
	if n.AllocCPUs, err = textInt(f, "CPUAlloc"); err != nil {
		return err
	}
	if n.Port, err = textInt(f, "Port"); err != nil {
		return err
	}
	n.IdleCPUs = max(n.CPUs-n.AllocCPUs, 0)
	return nil
}

// nodePartitions splits a Partitions= value; "" and "(null)" are none.
func nodePartitions(p string) []string {
	if p == "" || p == "(null)" {
		return nil
	}
	return strings.Split(p, ",")
}

// nodeReason returns a Reason= value without its "[user@time]" suffix.
func nodeReason(r string) string {
	if i := strings.LastIndex(r, " ["); i >= 0 && strings.HasSuffix(r, "]") {
		r = r[:i]
	}
	return r
}

// scontrolFields splits "A=1 B=two words C=3" into its fields: a word that
// does not start with an identifier and '=' continues the previous value.
func scontrolFields(line string) map[string]string {
	f := map[string]string{}
	key := ""
	for _, w := range strings.Fields(line) {
		if k, v, ok := strings.Cut(w, "="); ok && isIdent(k) {
			key = k
			f[key] = v
			continue
		}
		if key != "" {
			f[key] += " " + w
		}
	}
	return f
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// textInt reads an optional integer field (absent, N/A or (null): 0).
func textInt(f map[string]string, key string) (int, error) {
	v, ok := f[key]
	if !ok || v == "" || v == "N/A" || v == "(null)" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("field %s: %q is not a count", key, v)
	}
	return n, nil
}

// textTime reads Unix seconds; anything else (None, Unknown, N/A, a date in
// another format) is the zero time.
func textTime(v string) time.Time {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > 1<<40 {
		return time.Time{}
	}
	return time.Unix(n, 0).UTC()
}

// SqueueFormat is the squeue -o format ParseSqueueText reads: job id, array
// job id, array task id, state, CPUs, nodes, submit, start and end time,
// time limit, partition, user, reason, node list, name (last, as it may
// hold '|').
const SqueueFormat = "%A|%F|%K|%T|%C|%D|%V|%S|%e|%l|%P|%u|%r|%N|%j"

// ParseSqueueText reads `squeue -h -a -t all -o SqueueFormat` output
// written with SLURM_TIME_FORMAT=%s. An error names the line and field.
func ParseSqueueText(data []byte) ([]Job, error) {
	var out []Job
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		j, err := squeueJob(text, line)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("squeue: line %d: %v", line+1, err)
	}
	return out, nil
}

// squeueJob builds the job described by line line of squeue output, text.
func squeueJob(text string, line int) (Job, error) {
	c := strings.SplitN(text, "|", 15)
	if len(c) != 15 {
		return Job{}, fmt.Errorf("squeue: line %d: %d fields, want 15 (format %s)", line, len(c), SqueueFormat)
	}
	bad := func(field string, err error) error {
		return fmt.Errorf("squeue: line %d: field %s: %v", line, field, err)
	}
	id, err := strconv.ParseInt(c[0], 10, 64)
	if err != nil || id <= 0 {
		return Job{}, bad("job id", fmt.Errorf("%q is not a job id", c[0]))
	}
	j := Job{ID: id, ArrayTaskID: -1, State: strings.ToUpper(c[3]), Partition: c[10], User: c[11],
		Reason: c[12], NodeList: c[13], Name: c[14]}
	if j.State == "" {
		return Job{}, bad("state", fmt.Errorf("empty"))
	}
	j.Instances = 1
	if field, err := j.readArray(c[1], c[2]); err != nil {
		return Job{}, bad(field, err)
	}
	if j.CPUs, err = countField(c[4]); err != nil {
		return Job{}, bad("cpus", err)
	}
	if j.NodeCount, err = countField(c[5]); err != nil {
		return Job{}, bad("nodes", err)
	}
	j.SubmitTime, j.StartTime, j.EndTime = textTime(c[6]), textTime(c[7]), textTime(c[8])
	if j.TimeLimit, err = ParseTimeLimit(c[9]); err != nil {
		return Job{}, bad("time limit", err)
	}
	if j.NodeList == "(null)" || j.NodeList == "N/A" {
		j.NodeList = ""
	}
	if j.Nodes, err = ExpandHostlist(j.NodeList); err != nil {
		return Job{}, bad("node list", err)
	}
	return j, nil
}

// readArray reads squeue's array job id (%F) and array task id (%K) into
// j; a task id of "N/A" or "" leaves j a single job. An error comes with
// the name of the field at fault.
func (j *Job) readArray(arrayJob, task string) (field string, err error) {
	if task == "N/A" || task == "" {
		return "", nil
	}
	arr, err := strconv.ParseInt(arrayJob, 10, 64)
	if err != nil || arr <= 0 {
		return "array job id", fmt.Errorf("%q is not a job id", arrayJob)
	}
	j.ArrayJobID = arr
	if t, err := strconv.ParseInt(task, 10, 64); err == nil && t >= 0 {
		j.ArrayTaskID = t
		return "", nil
	}
	// A pending record of tasks not yet split off: "5-6", "1-9%2".
	if j.Instances, err = countArrayTasks(task); err != nil {
		return "array task id", err
	}
	j.ArrayTasks = task
	return "", nil
}

func countField(s string) (int, error) {
	if s == "N/A" || s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n, nil
}

// ParseTimeLimit reads a Slurm time limit as squeue writes it: "UNLIMITED",
// "INFINITE", "NOT_SET" or "N/A" (0, no limit), or [days-]hours:minutes:seconds,
// minutes:seconds, or minutes.
func ParseTimeLimit(s string) (time.Duration, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "UNLIMITED", "INFINITE", "NOT_SET", "N/A", "":
		return 0, nil
	}
	days, rest, err := limitDays(s)
	if err != nil {
		return 0, err
	}
	nums, err := limitClock(s, rest)
	if err != nil {
		return 0, err
	}
	sec := clockSeconds(days > 0, nums)
	total := days*86400 + sec
	if total > maxTimeLimitSeconds {
		return 0, fmt.Errorf("time limit %q: longer than 100 years", s)
	}
	return time.Duration(total) * time.Second, nil
}

// limitDays splits the time limit s into its days, 0 if it has no
// "days-" prefix, and the rest.
func limitDays(s string) (days int64, rest string, err error) {
	d, r, ok := strings.Cut(s, "-")
	if !ok {
		return 0, s, nil
	}
	v, err := strconv.ParseInt(d, 10, 64)
	if err != nil || v < 0 || v > 1e6 {
		return 0, "", fmt.Errorf("time limit %q: bad days", s)
	}
	return v, r, nil
}

// limitClock reads rest, the part of the time limit s after its days, as
// one to three ':'-separated numbers.
func limitClock(s, rest string) ([]int64, error) {
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("time limit %q: too many ':'", s)
	}
	var nums []int64
	for _, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v < 0 || v > 1e9 {
			return nil, fmt.Errorf("time limit %q: %q is not a number", s, p)
		}
		nums = append(nums, v)
	}
	return nums, nil
}

// clockSeconds returns the seconds of the clock part nums of a time limit:
// hours[:minutes] after days, else hours:minutes:seconds, minutes:seconds or
// minutes.
func clockSeconds(days bool, nums []int64) int64 {
	switch {
	case days && len(nums) == 1: // days-hours
		return nums[0] * 3600
	case days && len(nums) == 2: // days-hours:minutes
		return nums[0]*3600 + nums[1]*60
	case len(nums) == 3:
		return nums[0]*3600 + nums[1]*60 + nums[2]
	case len(nums) == 2:
		return nums[0]*60 + nums[1]
	default:
		return nums[0] * 60
	}
}

// maxTimeLimitSeconds bounds a time limit at 100 years, the horizon the
// importers use, well inside time.Duration's range of about 292 years.
const maxTimeLimitSeconds = 100 * 365 * 86400
