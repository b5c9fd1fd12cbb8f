package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/internal/horizon"
	"io"
	"math"
	"os"
)

// MaxRuleSetBytes bounds the size of a rule-set or state file read.
const MaxRuleSetBytes = 64 << 20

// WriteRuleSet validates rs and writes it to path as indented JSON with a
// final newline, every policy parameter spelt out (defaults filled in),
// atomically (a temporary file in the same directory, synced, then
// renamed). An existing file is an error unless force.
func WriteRuleSet(path string, rs *RuleSet, force bool) error {
	if err := rs.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s, _ := Lookup(rs.Policy.Name) // known: Validate passed
	full := *rs
	full.Policy = s.Fill(rs.Policy)
	b, err := json.MarshalIndent(&full, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeAtomic(path, append(b, '\n'), force)
}

// LoadRuleSet reads and validates the rule set at path. Errors name the
// file and the offending field, e.g.
// "rules.json: policy.params.idle_timeout: 99999 out of [60, 86400]".
func LoadRuleSet(path string) (*RuleSet, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	rs, err := ParseRuleSet(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// ParseRuleSet decodes a rule set from JSON (unknown fields are errors)
// and validates it.
func ParseRuleSet(data []byte) (*RuleSet, error) {
	var rs RuleSet
	if err := decodeStrict(data, &rs); err != nil {
		return nil, err
	}
	if err := rs.Validate(); err != nil {
		return nil, err
	}
	return &rs, nil
}

// Validate checks everything a daemon relies on: the schema version, a
// known deployable policy, its parameters within bounds, its fuzzy system,
// the cluster and the period. The error names the field.
func (rs *RuleSet) Validate() error {
	if rs.Version != RuleSetVersion {
		return fmt.Errorf("version: %d, this ecotune reads version %d", rs.Version, RuleSetVersion)
	}
	s, err := Lookup(rs.Policy.Name)
	if err != nil {
		return fmt.Errorf("policy.name: %w", err)
	}
	if s.Clairvoyant {
		return fmt.Errorf("policy.name: %s is clairvoyant (a bound), never deployable", s.Name)
	}
	if err := s.Check(rs.Policy); err != nil {
		return fmt.Errorf("policy.%w", err)
	}
	if _, err := s.New(rs.Policy); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	if len(rs.Cluster) == 0 {
		return errors.New("cluster: no node group")
	}
	names := map[string]bool{}
	nodes, slots := 0, 0 // each term below 2^45: no overflow
	for i := range rs.Cluster {
		if err := rs.Cluster[i].validate(names); err != nil {
			return fmt.Errorf("cluster[%d].%w", i, err)
		}
		nodes += rs.Cluster[i].Count
		slots += rs.Cluster[i].Count * rs.Cluster[i].Slots
		if nodes > horizon.MaxNodes || slots > horizon.MaxSlots {
			return fmt.Errorf("cluster: %d nodes of %d slots is out of range: at most %d nodes and %d slots", nodes, slots, horizon.MaxNodes, horizon.MaxSlots)
		}
	}
	if rs.Period < 1 {
		return fmt.Errorf("period_s: %d, want at least 1", rs.Period)
	}
	if rs.Period > horizon.MaxDuration {
		return fmt.Errorf("period_s: %d is out of range: more than %d (100 years)", rs.Period, horizon.MaxDuration)
	}
	return nil
}

// NewPolicy makes the policy the rule set describes.
func (rs *RuleSet) NewPolicy() (Policy, error) { return New(rs.Policy) }

func (g *Group) validate(names map[string]bool) error {
	switch {
	case g.Name == "":
		return errors.New("name: empty")
	case names[g.Name]:
		return fmt.Errorf("name: %q used twice", g.Name)
	case g.Count < 1:
		return fmt.Errorf("count: %d, want at least 1", g.Count)
	case g.Count > horizon.MaxNodes:
		return fmt.Errorf("count: %d is out of range: more than %d nodes", g.Count, horizon.MaxNodes)
	case g.Slots < 1:
		return fmt.Errorf("slots: %d, want at least 1", g.Slots)
	case g.Slots > horizon.MaxSlots:
		return fmt.Errorf("slots: %d is out of range: more than %d", g.Slots, horizon.MaxSlots)
	case !nonNegative(g.GFLOPS):
		return fmt.Errorf("gflops: %v, want a finite number ≥ 0", g.GFLOPS)
	}
	names[g.Name] = true
	if err := g.Model.validate(); err != nil {
		return fmt.Errorf("model.%w", err)
	}
	return nil
}

func (m *NodeModel) validate() error {
	for _, f := range []struct {
		name string
		x    float64
	}{
		{"off_w", m.OffW}, {"idle_w", m.IdleW}, {"busy_w", m.BusyW}, {"busy_slot_w", m.BusySlotW},
		{"boot_s", float64(m.BootS)}, {"boot_wh", m.BootWh}, {"shutdown_s", float64(m.ShutdownS)}, {"shutdown_wh", m.ShutdownWh},
	} {
		if !nonNegative(f.x) {
			return fmt.Errorf("%s: %v, want a finite number ≥ 0", f.name, f.x)
		}
	}
	for _, d := range []struct {
		name string
		s    int64
	}{{"boot_s", m.BootS}, {"shutdown_s", m.ShutdownS}} {
		if d.s > horizon.MaxDuration {
			return fmt.Errorf("%s: %d is out of range: more than %d (100 years)", d.name, d.s, horizon.MaxDuration)
		}
	}
	for i, l := range m.SleepLevels {
		for _, x := range []float64{l.W, float64(l.EnterS), l.EnterWh, float64(l.ExitS), l.ExitWh} {
			if !nonNegative(x) {
				return fmt.Errorf("sleep_levels[%d]: %v, want finite numbers ≥ 0", i, x)
			}
		}
		if l.EnterS > horizon.MaxDuration || l.ExitS > horizon.MaxDuration {
			return fmt.Errorf("sleep_levels[%d]: enter_s %d, exit_s %d: out of range: more than %d (100 years)", i, l.EnterS, l.ExitS, horizon.MaxDuration)
		}
	}
	for i, f := range m.Freqs {
		if !nonNegative(f.SlotW) || !(f.Speed > 0) || math.IsInf(f.Speed, 0) {
			return fmt.Errorf("freqs[%d]: slot_w %v, speed %v: want slot_w ≥ 0 and speed > 0", i, f.SlotW, f.Speed)
		}
	}
	return nil
}

func nonNegative(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// decodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data, and reports syntax errors with their line.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("line %d: %w", lineOf(data, syn.Offset), err)
	case errors.As(err, &typ):
		return fmt.Errorf("line %d: %s: %s is not a %s", lineOf(data, typ.Offset), typ.Field, typ.Value, typ.Type)
	}
	return err
}

func lineOf(data []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(data)))
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRuleSetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxRuleSetBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, MaxRuleSetBytes)
	}
	return data, nil
}

// writeAtomic writes data to path through a synced temporary file in the
// same directory renamed over it; an existing path is an error unless
// force.
func writeAtomic(path string, data []byte, force bool) error {
	if !force {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s exists (use --force to overwrite)", path)
		}
	}
	return atomicfile.WriteFile(path, data, atomicfile.Options{})
}
