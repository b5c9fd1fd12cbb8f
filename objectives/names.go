package objectives

// Names of the scores, as flags, JSON keys and columns spell them. The
// table in table.go describes each.
const (
	QoSP90           = "qos_p90"
	OffNodeSeconds   = "off_node_seconds"
	Reconfigurations = "reconfigurations"
	EnergyKWh        = "energy_kwh"
	MeanWait         = "mean_wait_s"
	MedianWait       = "median_wait_s"
	MaxWait          = "max_wait_s"
	BoundedSlowdown  = "bounded_slowdown"
	Makespan         = "makespan_s"
	PeakPowered      = "peak_powered_nodes"
	Boots            = "boots"
	Shutdowns        = "shutdowns"
)
