package scoring

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/ecotune/ecotune/datasets"
)

// TraceDigest is the trace's SHA-256 as run.json records it
// (trace_sha256): its source file's when it was read from one file, else
// JobsDigest of its jobs.
func TraceDigest(tr *datasets.Trace) string {
	if len(tr.Meta.Sources) == 1 && tr.Meta.Sources[0].SHA256 != "" {
		return tr.Meta.Sources[0].SHA256
	}
	return JobsDigest(tr.Jobs)
}

// JobsDigest is the SHA-256 of jobs in a canonical binary form.
func JobsDigest(jobs []datasets.Job) string {
	h := sha256.New()
	var b []byte
	for _, j := range jobs {
		b = b[:0]
		for _, v := range []int64{j.ID, j.Submit, j.Wait, j.Run, int64(j.Procs), int64(j.ReqProcs), j.ReqTime, int64(j.Status)} {
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
