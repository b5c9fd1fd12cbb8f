package datasets

// The Argonne dialect: the homemade SWF-like conversions of ALCF Theta and
// Mira job logs (traces/nonstandard/theta_argonne.swf and mira.swf).
//
// Layout, found by inspecting both files (every job line has 18
// tab-separated fields; header lines start with ';'):
//
//	 1 job id
//	 2 submit time, absolute Unix seconds (there is no UnixStartTime)
//	 3 wait time, seconds
//	 4 run time, seconds
//	 5 allocated nodes (MaxProcs = MaxNodes: the machine is counted in nodes)
//	 6 requested wall time, seconds (SWF has average CPU time here)
//	 7-11 -1 (SWF: memory, requested procs, requested time, memory, status)
//	12 hashed user id; 0 where the conversion had no user (read as unknown)
//	13-18 -1
//
// Lines are not sorted by submit time (the import pipeline sorts). Meta.Nodes
// and Meta.Procs come from the MaxNodes/MaxProcs header (4392 Theta, 49152
// Mira). Fields 7-11 and 13-18 are read as in SWF when they are not -1.

import (
	"bytes"
	"fmt"
	"io"
)

// argonneFieldNames names the 18 columns in error messages.
var argonneFieldNames = [18]string{
	"JobID", "SubmitTime", "WaitTime", "RunTime", "AllocatedNodes", "RequestedTime",
	"UsedMemory", "RequestedProcs", "RequestedTimeSWF", "RequestedMemory", "Status",
	"UserID", "GroupID", "ExecutableID", "QueueID", "PartitionID", "PrecedingJob", "ThinkTime",
}

// argonneMinEpoch separates absolute submit times (this dialect) from the
// relative ones of SWF: 1e8 s is March 1973, before any archived log.
const argonneMinEpoch = 100_000_000

type argonneReader struct {
	acctColumnReader
}

func newArgonneReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	a := acctNewColumnReader(r, "argonne", file, opt, argonneFieldNames[:])
	a.meta.Notes = append(a.meta.Notes, "Argonne dialect: submit times are absolute Unix seconds, field 5 counts nodes, field 6 is the requested wall time")
	a.meta.TimeZone = "UTC"
	a.comments, a.machineHeader = ";", true
	return &argonneReader{a}, nil
}

// detectArgonne accepts SWF-like text whose job lines have 18 tab-separated
// fields with an absolute epoch submit time.
func detectArgonne(head []byte) bool {
	lines := acctFirstLines(head, 5, ";")
	if len(lines) == 0 {
		return false
	}
	var f [][]byte
	for _, l := range lines {
		if bytes.Count(l, []byte{'\t'}) < 17 {
			return false
		}
		f = acctFields(f, l)
		if len(f) != 18 {
			return false
		}
		submit, ok := acctInt(f[1])
		if !ok || submit < argonneMinEpoch {
			return false
		}
		for _, v := range f {
			if _, ok := acctNumber(v); !ok {
				return false
			}
		}
	}
	return true
}

func (r *argonneReader) Next() (Job, error) {
	for {
		f, err := r.nextColumns()
		if err != nil {
			return Job{}, err
		}
		job, perr := r.parse(f)
		if done, err := r.take(perr, true); done {
			return job, err
		}
	}
}

func (r *argonneReader) parse(f [][]byte) (Job, *ParseError) {
	var v [18]int64
	for i := range f {
		if i == 11 {
			continue // user id: text
		}
		n, ok := acctNumber(f[i])
		if !ok {
			return Job{}, r.fieldErr(i, numberError(f[i], countLimit(i == 4 || i == 7)))
		}
		v[i] = n
	}
	if v[1] < argonneMinEpoch {
		return Job{}, r.fieldErr(1, fmt.Errorf("not an absolute Unix time: %w", ErrRange))
	}
	for _, i := range []int{2, 3, 4, 5, 7} {
		if v[i] < Unknown {
			return Job{}, r.fieldErr(i, fmt.Errorf("negative: %w", ErrRange))
		}
	}
	for _, i := range []int{4, 7} {
		if v[i] > MaxProcs {
			return Job{}, r.fieldErr(i, procsError(v[i]))
		}
	}
	status, ok := gwfStatus(v[10])
	if !ok {
		return Job{}, r.fieldErr(10, ErrRange)
	}
	return Job{
		ID:        v[0],
		Submit:    v[1],
		Wait:      v[2],
		Run:       v[3],
		Procs:     int32(v[4]),
		ReqProcs:  int32(v[7]),
		ReqTime:   v[5],
		Status:    status,
		User:      argonneUser(r.names, f[11]),
		Group:     gwfText(r.names, f[12]),
		Queue:     gwfText(r.names, f[14]),
		Partition: gwfText(r.names, f[15]),
	}, nil
}

// argonneUser reads the hashed user id; 0 and -1 mean no user.
func argonneUser(in acctInterner, b []byte) string {
	if string(b) == "0" {
		return ""
	}
	return gwfText(in, b)
}
