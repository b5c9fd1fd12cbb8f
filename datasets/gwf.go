package datasets

// GWF, the Grid Workloads Archive format: one job per line, 29 fields
// separated by white space, -1 for unknown, comment lines starting with '#'
// or ';'. The fields (GWA format specification):
//
//	 1 JobID               11 Status            21 UsedNetwork
//	 2 SubmitTime          12 UserID            22 UsedLocalDiskSpace
//	 3 WaitTime            13 GroupID           23 UsedResources
//	 4 RunTime             14 ExecutableID      24 ReqPlatform
//	 5 NProcs              15 QueueID           25 ReqNetwork
//	 6 AverageCPUTimeUsed  16 PartitionID       26 ReqLocalDiskSpace
//	 7 UsedMemory          17 OrigSiteID        27 ReqResources
//	 8 ReqNProcs           18 LastRunSiteID     28 VOID
//	 9 ReqTime             19 JobStructure      29 ProjectID
//	10 ReqMemory           20 JobStructureParams
//
// SubmitTime is read as Unix seconds. The numeric fields a Job takes
// (1-5, 8, 9, 11) accept decimals (rounded); the other fields are not
// checked. The ID fields are text (GWA traces write names such as "U12"
// or "fs0" there) and -1 reads as empty. Status
// follows SWF: 1 completed, 0 failed, 5 cancelled; the partial-execution
// codes 3 (last part completed) and 4 (last part failed) map to 1 and 0,
// 2 (partial, more to come) to Unknown. Header comments "MaxNodes:" and
// "MaxProcs:" set the machine size.

import (
	"fmt"
	"io"
)

var gwfFieldNames = [29]string{
	"JobID", "SubmitTime", "WaitTime", "RunTime", "NProcs", "AverageCPUTimeUsed",
	"UsedMemory", "ReqNProcs", "ReqTime", "ReqMemory", "Status", "UserID", "GroupID",
	"ExecutableID", "QueueID", "PartitionID", "OrigSiteID", "LastRunSiteID",
	"JobStructure", "JobStructureParams", "UsedNetwork", "UsedLocalDiskSpace",
	"UsedResources", "ReqPlatform", "ReqNetwork", "ReqLocalDiskSpace", "ReqResources",
	"VOID", "ProjectID",
}

// gwfNumeric lists the 0-based fields read as numbers: the ones a Job
// takes. The other fields are not checked (the reader does not use them).
var gwfNumeric = [...]int{0, 1, 2, 3, 4, 7, 8, 10}

type gwfReader struct {
	acctColumnReader
}

func newGWFReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	a := acctNewColumnReader(r, "gwf", file, opt, gwfFieldNames[:])
	a.comments, a.machineHeader = "#;", true
	return &gwfReader{a}, nil
}

// detectGWF accepts text whose first job lines have 29 white-space
// separated fields with numeric JobID, SubmitTime, WaitTime and RunTime.
func detectGWF(head []byte) bool {
	lines := acctFirstLines(head, 5, "#;")
	if len(lines) == 0 {
		return false
	}
	var f [][]byte
	for _, l := range lines {
		f = acctFields(f, l)
		if len(f) != 29 {
			return false
		}
		for _, i := range gwfNumeric[:5] {
			if _, ok := acctNumber(f[i]); !ok {
				return false
			}
		}
	}
	return true
}

func (r *gwfReader) Next() (Job, error) {
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

func (r *gwfReader) parse(f [][]byte) (Job, *ParseError) {
	var v [29]int64
	for _, i := range gwfNumeric {
		n, ok := acctNumber(f[i])
		if !ok {
			return Job{}, r.fieldErr(i, numberError(f[i], countLimit(i == 4 || i == 7)))
		}
		v[i] = n
	}
	if _, ok := acctInt(f[0]); !ok {
		return Job{}, r.fieldErr(0, ErrSyntax)
	}
	for _, i := range []int{1, 2, 3, 4, 7, 8} {
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
		return Job{}, r.fieldErr(10, fmt.Errorf("status %d: %w", v[10], ErrRange))
	}
	return Job{
		ID:        v[0],
		Submit:    v[1],
		Wait:      v[2],
		Run:       v[3],
		Procs:     int32(v[4]),
		ReqProcs:  int32(v[7]),
		ReqTime:   v[8],
		Status:    status,
		User:      gwfText(r.names, f[11]),
		Group:     gwfText(r.names, f[12]),
		Queue:     gwfText(r.names, f[14]),
		Partition: gwfText(r.names, f[15]),
	}, nil
}

// gwfStatus maps an SWF/GWF status code to the canonical one.
func gwfStatus(s int64) (int32, bool) {
	switch s {
	case 0, 1, 5:
		return int32(s), true
	case 3:
		return 1, true
	case 4:
		return 0, true
	case 2, Unknown:
		return Unknown, true
	}
	return 0, false
}

// gwfText reads a text ID field; "-1" means unknown.
func gwfText(in acctInterner, b []byte) string {
	if string(b) == "-1" {
		return ""
	}
	return in.get(b)
}
