package datasets

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"testing"
)

// acctBench reads data with the named reader b.N times, reporting MB/s,
// jobs/s and allocations per job.
func acctBench(b *testing.B, name string, data []byte) {
	b.Helper()
	f := acctFormat(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var jobs int
	for b.Loop() {
		rd, err := f.NewReader(bytes.NewReader(data), "bench.log", ReadOptions{Format: name})
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			jobs++
		}
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkSlurm reads the largest Slurm sample, XDMoD's phillips
// reference data (4,285 records, 1.4 MB).
func BenchmarkSlurm(b *testing.B) {
	data := []byte(acctReadText(b, acctSample(b, "samples/slurm/xdmod_referencedata_phillips.log")))
	acctBench(b, "slurm", data)
}

// BenchmarkPBS reads the PBS sample's 9 E records (TORQUE and PBS Pro,
// every exec_host form) repeated to 4,500 records, about 2.6 MB: the only
// real PBS log at hand is 5 KB.
func BenchmarkPBS(b *testing.B) {
	sample := acctReadText(b, acctSample(b, "samples/pbs/xdmod_accounting-logs.log"))
	acctBench(b, "pbs", bytes.Repeat([]byte(sample), 500))
}

// BenchmarkArgonne reads theta_argonne.swf (23,387 jobs, 1.8 MB).
func BenchmarkArgonne(b *testing.B) {
	acctBench(b, "argonne", []byte(acctReadText(b, acctSample(b, "nonstandard/theta_argonne.swf"))))
}

// BenchmarkOAR reads the oarstat details dump (800 jobs, 2.1 MB of JSON).
func BenchmarkOAR(b *testing.B) {
	acctBench(b, "oar", []byte(acctReadText(b, acctSample(b, "samples/oar/g5k_graphene_oarstat_details.json"))))
}

// BenchmarkSGE reads the SGE sample's 2 records repeated to 2,000 records,
// about 700 KB: the only real Grid Engine logs at hand are 1 KB.
func BenchmarkSGE(b *testing.B) {
	sample := acctReadText(b, acctSample(b, "samples/sge/xdmod_accounting-logs.log"))
	acctBench(b, "sge", bytes.Repeat([]byte(sample), 1000))
}

// BenchmarkLSF reads the LSF sample's 2 JOB_FINISH events repeated to
// 2,000 events, about 3 MB: the only real lsb.acct at hand is 3 KB.
func BenchmarkLSF(b *testing.B) {
	sample := acctReadText(b, acctSample(b, "samples/lsf/xdmod_accounting-logs.log"))
	acctBench(b, "lsf", bytes.Repeat([]byte(sample), 1000))
}

// BenchmarkGWF reads the DAS-2 style GWF test log (5 records among
// comment and blank lines) repeated to 5,000 records, about 1 MB: no real
// GWF trace is at hand.
func BenchmarkGWF(b *testing.B) {
	sample := acctReadText(b, filepath.FromSlash(gwfSample))
	acctBench(b, "gwf", bytes.Repeat([]byte(sample), 1000))
}
