package fuzzy

// Variable is a linguistic variable: a range with a strong fuzzy partition
// of len(Labels) triangular sets (trapezoids at the ends), each label
// shifted by a lateral displacement in [−0.5, 0.5] of the distance to its
// neighbours (the 2-tuple representation).
type Variable struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit,omitempty"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Labels []string  `json:"labels"`
	Shifts []float64 `json:"shifts,omitempty"` // one per label; nil = all 0
}

// Any in a rule antecedent matches every value of that input.
const Any = -1

// Rule is IF in_0 IS If[0] AND ... THEN out IS Then (with Weight).
type Rule struct {
	If     []int   `json:"if"`               // label index per input, or Any
	Then   int     `json:"then"`             // output label index (Mamdani)
	Weight float64 `json:"weight,omitempty"` // 0 means 1
	// Value, for TSK inference only, makes the rule conclude this number
	// instead of the centre of label Then ("THEN out = 2.5"); Then then
	// only switches the rule off (NoRule) or on (0).
	Value *float64 `json:"value,omitempty"`
}

// System is a rule base with its variables and inference method.
type System struct {
	Inputs    []Variable `json:"inputs"`
	Output    Variable   `json:"output"`
	Rules     []Rule     `json:"rules"`
	Inference string     `json:"inference"` // "mamdani" (min/max, centroid) or "tsk" (weighted average of label centres)
}

// NoRule as a rule's Then switches the rule off: it stays in the rule base
// (so a grid keeps its shape for the tuner) but never fires.
const NoRule = -1

// Inference methods.
const (
	Mamdani = "mamdani"
	TSK     = "tsk"
)

// Limits of a System, so that evaluation works on fixed-size arrays.
const (
	MaxInputs = 16
	MaxLabels = 16
)
