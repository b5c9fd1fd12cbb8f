package slurm

import (
	"sort"
	"strings"
)

// BaseState is a node's base state, the part of Slurm's node state that is
// not a flag.
type BaseState uint8

// The base states of slurm.h's enum node_states.
const (
	BaseUnknown BaseState = iota
	BaseDown
	BaseIdle
	BaseAllocated
	BaseError
	BaseMixed
	BaseFuture
)

var baseNames = [...]string{"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"}

// String returns Slurm's upper-case name of the base state.
func (b BaseState) String() string {
	if int(b) < len(baseNames) {
		return baseNames[b]
	}
	return "UNKNOWN"
}

// parseBase reads a base state name in any case (sinfo JSON writes "idle",
// scontrol "IDLE"); ok is false for a name it does not know.
func parseBase(s string) (BaseState, bool) {
	switch strings.ToUpper(s) {
	case "UNKNOWN":
		return BaseUnknown, true
	case "DOWN":
		return BaseDown, true
	case "IDLE":
		return BaseIdle, true
	case "ALLOCATED", "ALLOC":
		return BaseAllocated, true
	case "ERROR":
		return BaseError, true
	case "MIXED", "MIX":
		return BaseMixed, true
	case "FUTURE":
		return BaseFuture, true
	}
	return BaseUnknown, false
}

// Flags is a set of node state flags.
type Flags uint32

// The node state flags Slurm 22.05 reports (slurm.h NODE_STATE_*), by the
// names its JSON and scontrol print.
const (
	FlagNet Flags = 1 << iota
	FlagReserved
	FlagUndrain
	FlagCloud
	FlagResume
	FlagDrain
	FlagCompleting
	FlagNotResponding
	FlagPoweredDown
	FlagFail
	FlagPoweringUp
	FlagMaintenance
	FlagRebootRequested
	FlagRebootCanceled
	FlagPoweringDown
	FlagDynamicFuture
	FlagRebootIssued
	FlagPlanned
	FlagInvalidReg
	FlagPowerDown
	FlagPowerUp
	FlagPowerDrain
	FlagDynamicNorm
)

var flagNames = []struct {
	f    Flags
	name string
}{
	{FlagNet, "NET"},
	{FlagReserved, "RESERVED"},
	{FlagUndrain, "UNDRAIN"},
	{FlagCloud, "CLOUD"},
	{FlagResume, "RESUME"},
	{FlagDrain, "DRAIN"},
	{FlagCompleting, "COMPLETING"},
	{FlagNotResponding, "NOT_RESPONDING"},
	{FlagPoweredDown, "POWERED_DOWN"},
	{FlagFail, "FAIL"},
	{FlagPoweringUp, "POWERING_UP"},
	{FlagMaintenance, "MAINTENANCE"},
	{FlagRebootRequested, "REBOOT_REQUESTED"},
	{FlagRebootCanceled, "REBOOT_CANCELED"},
	{FlagPoweringDown, "POWERING_DOWN"},
	{FlagDynamicFuture, "DYNAMIC_FUTURE"},
	{FlagRebootIssued, "REBOOT_ISSUED"},
	{FlagPlanned, "PLANNED"},
	{FlagInvalidReg, "INVALID_REG"},
	{FlagPowerDown, "POWER_DOWN"},
	{FlagPowerUp, "POWER_UP"},
	{FlagPowerDrain, "POWER_DRAIN"},
	{FlagDynamicNorm, "DYNAMIC_NORM"},
}

// flagAliases are other spellings of flags seen in Slurm's outputs.
var flagAliases = map[string]Flags{
	"PERFCTRS":         FlagNet, // scontrol's name for NET (22.05 node_state_flags)
	"MAINT":            FlagMaintenance,
	"RES":              FlagReserved,
	"NO_RESPOND":       FlagNotResponding,
	"REBOOT":           FlagRebootRequested,
	"REBOOT_CANCELLED": FlagRebootCanceled,
	"POWER_DOWN_ASAP":  FlagPowerDown | FlagPowerDrain,
}

func parseFlag(s string) (Flags, bool) {
	u := strings.ToUpper(s)
	for _, fn := range flagNames {
		if fn.name == u {
			return fn.f, true
		}
	}
	f, ok := flagAliases[u]
	return f, ok
}

// Has reports whether every flag of g is set in f.
func (f Flags) Has(g Flags) bool { return f&g == g }

// Names returns the names of the set flags in a fixed order.
func (f Flags) Names() []string {
	var out []string
	for _, fn := range flagNames {
		if f&fn.f != 0 {
			out = append(out, fn.name)
		}
	}
	return out
}

// String joins the flag names with '+'.
func (f Flags) String() string { return strings.Join(f.Names(), "+") }

// NodeState is a node's state as Slurm reports it: a base state and flags.
// Names Slurm printed that this package does not know are kept in Unknown,
// and such a node is classified PowerUnavailable.
type NodeState struct {
	Base    BaseState
	Flags   Flags
	Unknown []string
}

// ParseNodeState builds a NodeState from a base name and flag names, as
// sinfo --json writes them (22.05: "state": "idle", "state_flags":
// ["POWERED_DOWN"]). Later versions write one list whose first base-state
// name is the base; pass it as flags with base "". It never fails: names it
// does not know land in Unknown.
func ParseNodeState(base string, flags []string) NodeState {
	var s NodeState
	haveBase := false
	if base != "" {
		b, ok := parseBase(base)
		if ok {
			s.Base, haveBase = b, true
		} else {
			s.Unknown = append(s.Unknown, strings.ToUpper(base))
		}
	}
	for _, name := range flags {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if f, ok := parseFlag(name); ok {
			s.Flags |= f
			continue
		}
		if b, ok := parseBase(name); ok && !haveBase {
			s.Base, haveBase = b, true
			continue
		}
		s.Unknown = append(s.Unknown, strings.ToUpper(name))
	}
	if !haveBase && len(s.Unknown) == 0 {
		s.Unknown = append(s.Unknown, "(no base state)")
	}
	return s
}

// ParseScontrolState reads the State= field of `scontrol show node`, such as
// "IDLE+POWERED_DOWN", "DOWN*+POWERED_DOWN" or "MIXED+DRAIN" (a '*' after a
// name means NOT_RESPONDING, as scontrol writes it).
func ParseScontrolState(s string) NodeState {
	parts := strings.Split(s, "+")
	var base string
	var flags []string
	for i, p := range parts {
		for strings.HasSuffix(p, "*") {
			p = strings.TrimSuffix(p, "*")
			flags = append(flags, "NOT_RESPONDING")
		}
		if i == 0 {
			base = p
			if base == "" {
				base = "(empty)"
			}
			continue
		}
		flags = append(flags, p)
	}
	return ParseNodeState(base, flags)
}

// String writes the state as scontrol does: base and flags joined by '+'.
func (s NodeState) String() string {
	parts := append([]string{s.Base.String()}, s.Flags.Names()...)
	u := append([]string(nil), s.Unknown...)
	sort.Strings(u)
	return strings.Join(append(parts, u...), "+")
}

// PowerClass is what a node's state means for power management. Only
// PowerIdle nodes may be powered down and only PowerOff nodes powered up;
// PowerUnavailable nodes are never acted on.
type PowerClass uint8

// The power classes. They map onto the simulator's node states: Off,
// Booting, Idle, Busy, ShuttingDown; PowerDownRequested is a shutdown Slurm
// has been asked for but not begun (idle!), PowerUnavailable a node that is
// down, drained or draining, failed, in maintenance, reserved, not
// responding or in a state this package does not know.
const (
	PowerUnavailable PowerClass = iota
	PowerOff
	PowerBooting
	PowerIdle
	PowerBusy
	PowerShuttingDown
	PowerDownRequested
)

var powerNames = [...]string{"unavailable", "off", "booting", "idle", "busy", "shutting_down", "power_down_requested"}

// String returns the class's snake_case name.
func (c PowerClass) String() string {
	if int(c) < len(powerNames) {
		return powerNames[c]
	}
	return "unavailable"
}

// unavailableFlags are flags that take a node out of power management
// whatever else it shows.
const unavailableFlags = FlagDrain | FlagFail | FlagMaintenance | FlagReserved |
	FlagInvalidReg | FlagRebootRequested | FlagRebootIssued | FlagDynamicFuture

// Power classifies the state for power management, in this order:
//   - unknown names, a base state other than idle, allocated or mixed
//     (down, error, future, unknown), or any of DRAIN, FAIL, MAINTENANCE,
//     RESERVED, INVALID_REG, REBOOT_REQUESTED, REBOOT_ISSUED, DYNAMIC_FUTURE:
//     unavailable (down~ = down+POWERED_DOWN+NOT_RESPONDING, a failed resume,
//     and drained! = idle+DRAIN+POWER_DOWN are both unavailable);
//   - POWERING_UP: booting (allocated# = allocated+NOT_RESPONDING+POWERING_UP
//     is a node booting for a job; NOT_RESPONDING is expected while it boots);
//   - NOT_RESPONDING otherwise: unavailable;
//   - POWERING_DOWN: shutting down (idle%);
//   - POWERED_DOWN: booting if Slurm is resuming it (allocated or mixed, a
//     job is waiting for it, or POWER_UP requested), else off (idle~);
//   - POWER_DOWN: power-down requested (idle!);
//   - allocated, mixed, or idle with COMPLETING or PLANNED (a job is ending
//     on it or the scheduler has planned one for it): busy;
//   - idle: idle.
func (s NodeState) Power() PowerClass {
	if len(s.Unknown) > 0 || s.Flags&unavailableFlags != 0 {
		return PowerUnavailable
	}
	switch s.Base {
	case BaseIdle, BaseAllocated, BaseMixed:
	default:
		return PowerUnavailable
	}
	switch {
	case s.Flags.Has(FlagPoweringUp):
		return PowerBooting
	case s.Flags.Has(FlagNotResponding):
		return PowerUnavailable
	case s.Flags.Has(FlagPoweringDown):
		return PowerShuttingDown
	case s.Flags.Has(FlagPoweredDown):
		if s.Base != BaseIdle || s.Flags.Has(FlagPowerUp) {
			return PowerBooting
		}
		return PowerOff
	case s.Flags.Has(FlagPowerDown):
		return PowerDownRequested
	case s.Base != BaseIdle, s.Flags&(FlagCompleting|FlagPlanned) != 0:
		return PowerBusy
	}
	return PowerIdle
}
