package objectives

// Scores are every figure one replay is judged by. JSON keys are the
// table's names (All; a test holds the tags to it) and "jobs".
type Scores struct {
	Jobs             int     `json:"jobs"`
	QoSP90           float64 `json:"qos_p90"`
	OffNodeSeconds   int64   `json:"off_node_seconds"`
	Reconfigurations int64   `json:"reconfigurations"`
	EnergyKWh        float64 `json:"energy_kwh"`
	MeanWait         float64 `json:"mean_wait_s"`
	MedianWait       float64 `json:"median_wait_s"`
	MaxWait          int64   `json:"max_wait_s"`
	BoundedSlowdown  float64 `json:"bounded_slowdown"`
	Makespan         int64   `json:"makespan_s"`
	PeakPowered      int     `json:"peak_powered_nodes"`
	Boots            int64   `json:"boots"`
	Shutdowns        int64   `json:"shutdowns"`
}
