package sim

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
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
		c, opt := fuzzSetting(mode)
		tr := fuzzTrace(data, 8)
		if len(tr.Jobs) == 0 {
			return
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

// fuzzSetting is the cluster and options a fuzz mode byte picks: bit 0
// EASY (else FCFS), bits 1-2 the period (every event, 60 s, 7 s), bit 3
// boot failures, bit 4 one-slot nodes, bit 5 there in one group, bit 6
// conservative backfilling. Every run keeps a timeline.
func fuzzSetting(mode uint8) (Cluster, Options) {
	c := propertyCluster()
	if mode&16 != 0 {
		c = oneSlotCluster(1 + int(mode>>5&1))
	}
	opt := Options{Scheduler: []string{FCFS, EASY}[mode%2], Period: []int64{EveryEvent, 60, 7}[mode/2%3], Timeline: true}
	if mode&64 != 0 {
		opt.Scheduler = Conservative
	}
	if mode&8 != 0 {
		opt.BootFailProb, opt.Seed = 0.3, int64(mode)
	}
	return c, opt
}

// quietPolicies are the policy.Quiet policies FuzzQuietSameRun picks
// from: idle-timeout at eight timeouts and two boot limits, and hgfs with
// and without drain (its schedule rule) and with one node booting at a
// time.
func quietPolicies() []policy.Config {
	var cs []policy.Config
	for _, timeout := range []float64{60, 120, 300, 600, 1200, 3600, 14400, 86400} {
		for _, maxBoot := range []float64{0, 1} {
			cs = append(cs, policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": timeout, "max_booting": maxBoot}})
		}
	}
	return append(cs, policy.Config{Name: "always-on"}, policy.Config{Name: "hgfs"},
		policy.Config{Name: "hgfs", Params: map[string]float64{"min_idle": 240, "drain_lead": 600, "drain_gap": 300}},
		policy.Config{Name: "hgfs", Params: map[string]float64{"min_idle": 60, "max_booting": 1, "spare": 1}})
}

// FuzzQuietSameRun checks the simulator's fast paths on arbitrary small
// traces: a run in which the policy's Quiet lets it skip decisions, and
// keep the list of idle nodes and the nodes' views only once needed, must
// equal field for field (jobs, placements, timeline, energy) the run in
// which the same policy is consulted at every decision, whose invariants
// are checked at each one. The mode byte picks the cluster and options
// (fuzzSetting), pick the policy (quietPolicies).
func FuzzQuietSameRun(f *testing.F) {
	f.Add([]byte{0, 10, 1, 0, 5, 20, 3, 2, 0, 0, 7, 1}, uint8(1+2), uint8(6))
	f.Add([]byte{1, 255, 9, 9, 0, 1, 0, 0, 200, 3, 4, 5, 0, 0, 1, 1}, uint8(16+1+8), uint8(17))
	f.Add([]byte{0, 10, 5, 0, 5, 20, 3, 2, 0, 0, 7, 1, 3, 9, 2, 4}, uint8(16+32+1+2), uint8(18))
	f.Add([]byte{9, 0, 31, 0, 0, 0, 2, 40, 0, 0, 5, 0, 40, 200, 7, 0}, uint8(1+4), uint8(19))
	pols := quietPolicies()
	f.Fuzz(func(t *testing.T, data []byte, mode, pick uint8) {
		c, opt := fuzzSetting(mode)
		opt.JobNodes = true
		tr := fuzzTrace(data, c.Slots())
		if len(tr.Jobs) == 0 {
			return
		}
		p, err := policy.New(pols[int(pick)%len(pols)])
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(tr, c, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Run(&observer{Policy: p, s: s, t: t}) // consulted every time
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the quiet run differs from the one consulted every time", p.Name())
		}
	})
}
