package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ecotune/ecotune/policy"
)

// FeaturesVersion is the schema version of the state file.
const FeaturesVersion = 1

// maxStateBytes bounds the state file read.
const maxStateBytes = 64 << 20

// Features is what the daemon accumulates over time, as the simulator
// does over a replay: when each node entered its state and last became
// idle, recent arrivals, the smoothed slots submitted per local hour.
// It persists in the state directory so a restarted daemon continues
// the same history.
type Features struct {
	Version  int                   `json:"version"`
	Start    int64                 `json:"start"`
	Last     int64                 `json:"last"` // time of the last update
	TZOffset int                   `json:"tz_offset_s"`
	Nodes    map[string]*NodeTrack `json:"nodes"`
	// MaxJobID is the highest job ID seen: later IDs are new arrivals.
	MaxJobID int64                 `json:"max_job_id"`
	Recent   []policy.StateArrival `json:"recent"`
	Hourly   [24]float64           `json:"hourly_slots"`
	Rolled   bool                  `json:"rolled"` // Hourly holds a day at least
	Today    [24]float64           `json:"today"`
	Day      int64                 `json:"day"` // local day number of Today
	// ResumeFailures counts nodes that failed to come back from a power
	// down (left to Slurm).
	ResumeFailures int64 `json:"resume_failures"`
}

// NodeTrack is one node's history.
type NodeTrack struct {
	State       string `json:"state"` // policy state name, or "unavailable"
	Since       int64  `json:"since"`
	IdleSince   int64  `json:"idle_since"`
	LastFailed  int64  `json:"last_failed,omitempty"`
	Failed      bool   `json:"failed,omitempty"` // resume failure seen, not yet recovered
	Unavailable string `json:"unavailable,omitempty"`
}

// NewFeatures starts an empty history at now.
func NewFeatures(now int64, tz int) *Features {
	return &Features{Version: FeaturesVersion, Start: now, Last: now, TZOffset: tz, Nodes: map[string]*NodeTrack{}, Day: localDay(now, tz)}
}

func localDay(t int64, tz int) int64 {
	x := t + int64(tz)
	d := x / 86400
	if x%86400 < 0 {
		d--
	}
	return d
}

// Event is something the feature state noticed in an update.
type Event struct {
	Node string `json:"node"`
	What string `json:"what"`
}

// Update feeds one snapshot of the managed nodes (and all jobs) taken at
// now. It returns what it noticed (resume failures).
func (f *Features) Update(now int64, nodes []Node, managed map[string]int, jobs []Job) []Event {
	var events []Event
	for f.Day < localDay(now, f.TZOffset) {
		f.roll()
	}
	for i := range nodes {
		n := &nodes[i]
		if _, ok := managed[n.Name]; !ok {
			continue
		}
		state := n.Power.String()
		if n.Unavailable != "" {
			state = "unavailable"
		}
		t := f.Nodes[n.Name]
		if t == nil {
			t = &NodeTrack{State: state, Since: now, IdleSince: now}
			if n.Power == policy.Idle && n.LastBusy > 0 && n.LastBusy <= now {
				t.Since, t.IdleSince = n.LastBusy, n.LastBusy
			}
			f.Nodes[n.Name] = t
		} else if t.State != state {
			t.State, t.Since = state, now
			if state == "idle" {
				t.IdleSince = now
				if n.LastBusy > f.Last && n.LastBusy <= now {
					t.Since, t.IdleSince = n.LastBusy, n.LastBusy
				}
			}
		}
		t.Unavailable = n.Unavailable
		if n.ResumeFailed && !t.Failed {
			t.Failed, t.LastFailed = true, now
			f.ResumeFailures++
			events = append(events, Event{Node: n.Name, What: "resume failed (left to Slurm)"})
		} else if !n.ResumeFailed && t.Failed {
			t.Failed = false
		}
	}
	var fresh []policy.StateArrival
	maxID := f.MaxJobID
	for _, j := range jobs {
		if j.ID <= f.MaxJobID {
			continue
		}
		maxID = max(maxID, j.ID)
		at := min(j.Submit, now)
		fresh = append(fresh, policy.StateArrival{Time: at, Slots: max(j.CPUs, 1), ReqTime: j.TimeLimit})
		if localDay(at, f.TZOffset) == f.Day {
			h := (at + int64(f.TZOffset)) % 86400 / 3600
			if h < 0 {
				h += 24
			}
			f.Today[h] += float64(max(j.CPUs, 1))
		}
	}
	f.MaxJobID = maxID
	sort.SliceStable(fresh, func(a, b int) bool { return fresh[a].Time < fresh[b].Time })
	// Keep Recent in time order: an arrival seen late but submitted
	// earlier than the last recorded one is placed at the last time.
	for _, a := range fresh {
		if k := len(f.Recent); k > 0 && a.Time < f.Recent[k-1].Time {
			a.Time = f.Recent[k-1].Time
		}
		f.Recent = append(f.Recent, a)
	}
	if len(f.Recent) > policy.RecentCap {
		f.Recent = append([]policy.StateArrival(nil), f.Recent[len(f.Recent)-policy.RecentCap:]...)
	}
	f.Last = now
	return events
}

// roll closes the local day as the simulator does at local midnight:
// HourlySlots becomes 1/7 of the day just ended plus 6/7 of its previous
// value (the first day taken as it is).
func (f *Features) roll() {
	for k := range f.Hourly {
		if f.Rolled {
			f.Hourly[k] += (f.Today[k] - f.Hourly[k]) / 7
		} else {
			f.Hourly[k] = f.Today[k]
		}
	}
	f.Rolled = true
	f.Today = [24]float64{}
	f.Day++
}

// stateFile is the name of the feature state in the state directory.
const stateFile = "features.json"

// LoadFeatures reads the feature state of dir; ok is false when there is
// none yet.
func LoadFeatures(dir string) (f *Features, ok bool, err error) {
	path := filepath.Join(dir, stateFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	f, err = ParseFeatures(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return f, true, nil
}

// ParseFeatures decodes and checks a feature state.
func ParseFeatures(data []byte) (*Features, error) {
	if len(data) > maxStateBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxStateBytes)
	}
	var f Features
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	switch {
	case f.Version != FeaturesVersion:
		return nil, fmt.Errorf("version: %d, this ecotune reads version %d", f.Version, FeaturesVersion)
	case f.Last < f.Start:
		return nil, fmt.Errorf("last: %d before start %d", f.Last, f.Start)
	case len(f.Recent) > policy.RecentCap:
		return nil, fmt.Errorf("recent: %d arrivals, at most %d", len(f.Recent), policy.RecentCap)
	case f.TZOffset < -86400 || f.TZOffset > 86400:
		return nil, fmt.Errorf("tz_offset_s: %d out of a day", f.TZOffset)
	case f.Day > localDay(f.Last, f.TZOffset)+1 || f.Day < localDay(f.Start, f.TZOffset)-1:
		return nil, fmt.Errorf("day: %d outside the state's time span", f.Day)
	}
	for i, a := range f.Recent {
		if a.Slots < 1 || a.Time > f.Last || (i > 0 && a.Time < f.Recent[i-1].Time) {
			return nil, fmt.Errorf("recent[%d]: want slots ≥ 1 and times in order up to last", i)
		}
	}
	for name, t := range f.Nodes {
		if t == nil || t.Since > f.Last || t.IdleSince > f.Last {
			return nil, fmt.Errorf("nodes.%s: missing, or times after last (%d)", name, f.Last)
		}
	}
	if f.Nodes == nil {
		f.Nodes = map[string]*NodeTrack{}
	}
	return &f, nil
}

// Save writes the feature state to dir atomically.
func (f *Features) Save(dir string) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, stateFile), append(data, '\n'))
}

// writeAtomic writes data through a synced temporary file in the same
// directory renamed over path.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
