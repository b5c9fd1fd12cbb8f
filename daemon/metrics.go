package daemon

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ecotune/ecotune/policy"
)

// Metrics are the daemon's Prometheus metrics, on a registry of their own.
// A nil *Metrics records nothing.
type Metrics struct {
	Registry    *prometheus.Registry
	nodes       *prometheus.GaugeVec
	queued      prometheus.Gauge
	decisions   prometheus.Counter
	commands    *prometheus.CounterVec
	failures    *prometheus.CounterVec
	slurmErrors prometheus.Counter
	resumeFail  prometheus.Counter
	savedWh     prometheus.Counter
	lastNow     int64
	lastOff     float64 // Σ over off nodes of (idle W − off W) at the last cycle
}

// NewMetrics makes the metrics and registers them.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		nodes: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ecotune_nodes",
			Help: "Managed nodes by power state (off, booting, idle, busy, shutting-down, unavailable)."}, []string{"state"}),
		queued: prometheus.NewGauge(prometheus.GaugeOpts{Name: "ecotune_queued_slots", Help: "Slots of pending jobs."}),
		decisions: prometheus.NewCounter(prometheus.CounterOpts{Name: "ecotune_decisions_total",
			Help: "Decisions taken by the policy."}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ecotune_commands_total",
			Help: "Power commands carried out (or logged in dry run), by verb."}, []string{"verb", "dry_run"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ecotune_command_failures_total",
			Help: "Power commands Slurm refused or that failed, by verb."}, []string{"verb"}),
		slurmErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "ecotune_cycle_errors_total",
			Help: "Cycles that failed (Slurm unreachable, a command failing)."}),
		resumeFail: prometheus.NewCounter(prometheus.CounterOpts{Name: "ecotune_resume_failures_total",
			Help: "Nodes that failed to come back from a power down (left to Slurm)."}),
		savedWh: prometheus.NewCounter(prometheus.CounterOpts{Name: "ecotune_energy_saved_wh_total",
			Help: "Estimated energy saved since start: off node-seconds × (idle W − off W) of their group, in Wh."}),
	}
	m.Registry.MustRegister(m.nodes, m.queued, m.decisions, m.commands, m.failures, m.slurmErrors, m.resumeFail, m.savedWh)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

func (m *Metrics) observe(s *Summary, rs *policy.RuleSet, v *policy.View) {
	if m == nil {
		return
	}
	for state, n := range map[string]int{"off": s.Off, "booting": s.Booting, "idle": s.Idle, "busy": s.Busy,
		"shutting-down": s.ShuttingDown, "unavailable": s.Unavailable} {
		m.nodes.WithLabelValues(state).Set(float64(n))
	}
	m.queued.Set(float64(s.QueuedSlots))
	if m.lastNow != 0 && v.Now > m.lastNow {
		m.savedWh.Add(m.lastOff * float64(v.Now-m.lastNow) / 3600)
	}
	m.lastNow, m.lastOff = v.Now, 0
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Off {
			g := v.Groups[v.Nodes[i].Group].Model
			m.lastOff += max(0, g.IdleW-g.OffW)
		}
	}
}

func (m *Metrics) decided() {
	if m != nil {
		m.decisions.Inc()
	}
}

func (m *Metrics) command(c *Command) {
	if m == nil {
		return
	}
	dry := "false"
	if c.DryRun {
		dry = "true"
	}
	m.commands.WithLabelValues(c.Verb, dry).Add(float64(len(c.Nodes)))
	if c.Error != "" {
		m.failures.WithLabelValues(c.Verb).Inc()
	}
}

func (m *Metrics) slurmError() {
	if m != nil {
		m.slurmErrors.Inc()
	}
}

func (m *Metrics) resumeFailed() {
	if m != nil {
		m.resumeFail.Inc()
	}
}

// Serve serves the metrics at http://addr/metrics, on a server of their
// own, until stop is called; logf says where.
func (m *Metrics) Serve(addr string, logf func(string, ...any)) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends when stop closes it
	logf("metrics at http://%s/metrics", ln.Addr())
	return func() { srv.Close() }, nil
}
