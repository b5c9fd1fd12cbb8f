package fuzzy

// ClearIdleShifts sets to 0 every shift of s that cannot change what s
// infers (Eval, Compiled.Eval), so that rule bases that differ only in
// such shifts become equal: the tuner evaluates one of them. Shifts move
// label centres, and the centre of label l of an input matters only to
// the memberships of labels l−1, l and l+1 (the partition is strong:
// elsewhere those are 0 or 1 whatever the centre), so it is idle when no
// rule that is on names one of those labels on that input (Any names
// none: the input is not read). An output label's centre matters under
// TSK only to the rules that are on and conclude it (not with a Value),
// and under Mamdani, where the centroid reads every label, to none unless
// some rule is on. A variable with one label has its centre in the middle
// whatever its shift. Shifts stay nil where they were nil.
func (s *System) ClearIdleShifts() {
	var u shiftUse
	u.record(s.Rules)
	for j := range s.Inputs {
		v := &s.Inputs[j]
		for l := range v.Shifts {
			if !u.inputLabelMatters(j, l, len(v.Labels)) || len(v.Labels) == 1 {
				v.Shifts[l] = 0
			}
		}
	}
	out := &s.Output
	for k := range out.Shifts {
		matters := u.anyOn && (s.Inference != TSK || (k < MaxLabels && u.concluded[k]))
		if !matters || len(out.Labels) == 1 {
			out.Shifts[k] = 0
		}
	}
}

// shiftUse records which labels the rules that are on name.
type shiftUse struct {
	used      [MaxInputs][MaxLabels]bool // used[j][l]: a rule that is on names label l of input j
	concluded [MaxLabels]bool            // a rule that is on concludes label k (TSK, no Value)
	anyOn     bool                       // some rule is on
}

// record notes the labels named by every rule of rules that is on; labels
// out of range are ignored.
func (u *shiftUse) record(rules []Rule) {
	for i := range rules {
		r := &rules[i]
		if r.Then == NoRule {
			continue
		}
		u.anyOn = true
		for j, l := range r.If {
			if l != Any && j < MaxInputs && l >= 0 && l < MaxLabels {
				u.used[j][l] = true
			}
		}
		if r.Value == nil && r.Then >= 0 && r.Then < MaxLabels {
			u.concluded[r.Then] = true
		}
	}
}

// inputLabelMatters reports whether the centre of label l of input j, which
// has n labels, matters to a rule that is on: whether such a rule names
// label l−1, l or l+1 of that input.
func (u *shiftUse) inputLabelMatters(j, l, n int) bool {
	matters := false
	for k := max(0, l-1); k <= l+1 && k < n && j < MaxInputs && k < MaxLabels; k++ {
		matters = matters || u.used[j][k]
	}
	return matters
}
