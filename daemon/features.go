package daemon

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
)

// HistoryVersion is the schema version of the state file.
const HistoryVersion = 1

// maxStateBytes bounds the state file read.
const maxStateBytes = 64 << 20

// History is what the daemon accumulates over time: policy.Features, the
// feature state the simulator keeps over a replay (recent arrivals, the
// smoothed slots submitted per local hour, when each node entered its
// state and last became idle), fed with what each poll observes; and
// what the daemon itself must remember to feed it right (the managed
// nodes in feature order, the highest job ID fed, nodes whose resume
// failed). It persists in the state directory so a restarted daemon
// continues the same history.
type History struct {
	F *policy.Features
	// Names are the managed nodes: node i of F is Names[i].
	Names []string
	// MaxJobID is the highest job ID fed: later IDs are new arrivals.
	MaxJobID int64
	// Failed are the nodes whose resume failed and that have not come
	// back since.
	Failed map[string]bool
	// ResumeFailures counts nodes that failed to come back from a power
	// down (left to Slurm).
	ResumeFailures int64
	index          map[string]int
}

// NewHistory starts a history at now for the managed nodes names, every
// node idle since now, as the simulator starts its replay.
func NewHistory(now int64, tz int, names []string) *History {
	h := &History{F: policy.NewFeatures(now, tz, len(names)), Names: slices.Clone(names), Failed: map[string]bool{}}
	h.reindex()
	return h
}

func (h *History) reindex() {
	h.index = make(map[string]int, len(h.Names))
	for i, n := range h.Names {
		h.index[n] = i
	}
}

// Event is something the history noticed in an update.
type Event struct {
	Node string `json:"node"`
	What string `json:"what"`
}

// Update feeds one poll taken at now: the clock, the jobs not fed before
// (in submit time, then job ID order; a submit time after now counts as
// now), and the state of every available managed node (a node that
// became idle since the last poll at Slurm's last-busy time when it lies
// in between). Unavailable nodes are not fed: their history waits until
// they are back. A node found down after a failed resume enters Off from
// Booting (LastFailed, as the simulator's failed boots) once, and is
// counted. It returns what it noticed.
func (h *History) Update(now int64, nodes []Node, jobs []Job) []Event {
	f := h.F
	last := f.Now()
	f.Advance(now)
	var fresh []*Job
	for i := range jobs {
		if jobs[i].ID > h.MaxJobID {
			fresh = append(fresh, &jobs[i])
		}
	}
	slices.SortFunc(fresh, func(a, b *Job) int { return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID)) })
	for _, j := range fresh {
		f.Submitted(policy.Arrival{Time: min(j.Submit, now), Slots: max(j.CPUs, 1), ReqTime: j.TimeLimit})
		h.MaxJobID = max(h.MaxJobID, j.ID)
	}
	var events []Event
	for k := range nodes {
		n := &nodes[k]
		i, ok := h.index[n.Name]
		if !ok {
			continue
		}
		if n.ResumeFailed {
			if !h.Failed[n.Name] {
				h.Failed[n.Name] = true
				h.ResumeFailures++
				if f.Node(i).State != policy.Booting {
					f.NodeChanged(i, policy.Booting, now)
				}
				f.NodeChanged(i, policy.Off, now)
				events = append(events, Event{Node: n.Name, What: "resume failed (left to Slurm)"})
			}
			continue
		}
		if n.Unavailable != "" {
			continue
		}
		delete(h.Failed, n.Name)
		t := now
		if n.Power == policy.Idle && n.LastBusy > last && n.LastBusy <= now {
			t = n.LastBusy
		}
		f.NodeChanged(i, n.Power, t)
	}
	return events
}

// historyJSON is the state file.
type historyJSON struct {
	Version        int              `json:"version"`
	Names          []string         `json:"nodes"`
	MaxJobID       int64            `json:"max_job_id"`
	Failed         []string         `json:"failed,omitempty"`
	ResumeFailures int64            `json:"resume_failures"`
	Features       *policy.Features `json:"features"`
}

// MarshalJSON writes the state file's form.
func (h *History) MarshalJSON() ([]byte, error) {
	j := historyJSON{Version: HistoryVersion, Names: h.Names, MaxJobID: h.MaxJobID, ResumeFailures: h.ResumeFailures, Features: h.F}
	for n := range h.Failed {
		j.Failed = append(j.Failed, n)
	}
	slices.Sort(j.Failed)
	return json.Marshal(&j)
}

// ParseHistory decodes and checks a state file.
func ParseHistory(data []byte) (*History, error) {
	if len(data) > maxStateBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxStateBytes)
	}
	var j historyJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, err
	}
	switch {
	case j.Version != HistoryVersion:
		return nil, fmt.Errorf("version: %d, this ecotune reads version %d", j.Version, HistoryVersion)
	case j.Features == nil:
		return nil, errors.New("features: missing")
	case j.Features.Nodes() != len(j.Names):
		return nil, fmt.Errorf("nodes: %d names for %d nodes of features", len(j.Names), j.Features.Nodes())
	case j.ResumeFailures < 0 || j.MaxJobID < 0:
		return nil, errors.New("max_job_id, resume_failures: want counts ≥ 0")
	}
	h := &History{F: j.Features, Names: j.Names, MaxJobID: j.MaxJobID, ResumeFailures: j.ResumeFailures, Failed: map[string]bool{}}
	h.reindex()
	if len(h.index) != len(h.Names) {
		return nil, errors.New("nodes: a name given twice")
	}
	for _, n := range j.Failed {
		if _, ok := h.index[n]; !ok {
			return nil, fmt.Errorf("failed: %q is not one of the nodes", n)
		}
		h.Failed[n] = true
	}
	return h, nil
}

// stateFile is the name of the history in the state directory.
const stateFile = "features.json"

// LoadHistory reads the history of dir (opened as a run.Root: a symbolic
// link at the state file is refused); ok is false when there is none.
func LoadHistory(dir string) (h *History, ok bool, err error) {
	root, err := run.OpenRoot(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	data, err := root.ReadFile(stateFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	h, err = ParseHistory(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", root.Join(stateFile), err)
	}
	return h, true, nil
}

// Save writes the history to dir atomically (internal/atomicfile inside
// dir opened as a run.Root: a link at the state file is replaced, never
// followed), readable by its owner only.
func (h *History) Save(dir string) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	root, err := run.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return root.WriteFile(stateFile, append(data, '\n'), atomicfile.Options{Mode: 0o600})
}
