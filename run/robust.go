package run

// Robust says how a run scored a candidate on its train split (run.json's
// "robust", absent for a plain run: one replay of the whole train split).
// A robust run replays every candidate on Windows consecutive blocks of
// the train split (equal job counts, in submit order) and, for each block,
// on Replicas copies whose submit times are jittered by up to ±Jitter
// seconds (seeded by the run's seed) and, when Thin is set, on one copy
// keeping each job with probability Thin, and aggregates the replays'
// scores per objective with Aggregate, the p90 wait ratio relative to
// always-on's on the same replay when Relative. tuner documents the
// semantics (tuner.Robust).
type Robust struct {
	Windows   int     `json:"windows"`
	Replicas  int     `json:"replicas"`
	Jitter    int64   `json:"jitter_s"`
	Aggregate string  `json:"aggregate"`          // "mean", "worst" or "cvar"
	Alpha     float64 `json:"alpha,omitempty"`    // cvar's tail fraction
	Thin      float64 `json:"thin,omitempty"`     // fraction of a window's jobs kept in its thinned copy (0: none)
	Relative  bool    `json:"relative,omitempty"` // qos_p90 aggregated relative to always-on's on each replay
}

// IsZero reports whether r asks for nothing beyond one plain replay.
func (r Robust) IsZero() bool { return r == Robust{} }
