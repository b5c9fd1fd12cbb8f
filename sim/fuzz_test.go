package sim

import (
	"testing"

	"github.com/ecotune/ecotune/datasets"
)

// fuzzTrace reads jobs from data, four bytes each: gap to the previous
// submit, run time, slots (1..total), requested time (0: unknown).
func fuzzTrace(data []byte, total int) *datasets.Trace {
	tr := &datasets.Trace{}
	t := int64(0)
	for i := 0; i+4 <= len(data) && len(tr.Jobs) < 200; i += 4 {
		t += int64(data[i]) * 7
		run := int64(data[i+1]) * 13
		req := int64(data[i+3]) * 17
		if req == 0 {
			req = datasets.Unknown
		}
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(len(tr.Jobs) + 1), Submit: t, Run: run, Procs: int32(1 + int(data[i+2])%total), ReqTime: req})
	}
	return tr
}

// FuzzRun replays arbitrary small traces under the chaotic policy and
// checks the invariants at every decision and the accounting at the end.
// Jobs take up to 8 slots: chaos, switching nodes off at random and with
// boots failing, would keep a wider one from finding all its nodes on at
// once for simulated years (a job of the whole 32-slot cluster took 80 s
// to replay; testdata/fuzz/FuzzRun/473b7ca3a6d343e6). Mode bit 16 runs
// them on one-slot nodes, bit 32 there in one group; bit 64 schedules
// by conservative backfilling.
func FuzzRun(f *testing.F) {
	f.Add([]byte{0, 10, 1, 0, 5, 20, 3, 2, 0, 0, 7, 1}, uint8(0))
	f.Add([]byte{1, 255, 9, 9, 0, 1, 0, 0, 200, 3, 4, 5, 0, 0, 1, 1}, uint8(3))
	f.Add([]byte{0, 10, 5, 0, 5, 20, 3, 2, 0, 0, 7, 1, 3, 9, 2, 4}, uint8(16+32+1))
	f.Add([]byte{0, 10, 5, 0, 5, 20, 3, 2, 0, 0, 7, 1, 3, 9, 2, 4}, uint8(64+2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		c := propertyCluster()
		if mode&16 != 0 {
			c = oneSlotCluster(1 + int(mode>>5&1))
		}
		tr := fuzzTrace(data, 8)
		if len(tr.Jobs) == 0 {
			return
		}
		opt := Options{Scheduler: []string{FCFS, EASY}[mode%2], Period: []int64{EveryEvent, 60, 7}[mode/2%3], Timeline: true}
		if mode&64 != 0 {
			opt.Scheduler = Conservative
		}
		if mode&8 != 0 {
			opt.BootFailProb, opt.Seed = 0.3, int64(mode)
		}
		s, err := New(tr, c, opt)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Run(&observer{Policy: chaos{}, s: s, t: t})
		if err != nil {
			t.Fatal(err)
		}
		checkJobs(t, tr, r)
		checkEnergy(t, s, r)
	})
}
