package search

// A Problem is what a search optimises: its decision variables, its
// objectives and a way to make evaluators. It holds no search state.
type Problem interface {
	Vars() []Var
	Objectives() []Objective
	// NewEvaluator makes an evaluator for one worker goroutine. Evaluators
	// may keep scratch state (a simulator); one is never used by two
	// goroutines at once.
	NewEvaluator() (Evaluator, error)
}

// An Evaluator scores candidates. Evaluate writes one value per objective
// into f, in the problem's own sense (maximised objectives are not negated),
// and returns the total constraint violation: 0 when x is feasible, the
// larger the worse otherwise. x holds one valid value per variable.
// Evaluation must be deterministic: the same x gives the same f and
// violation.
type Evaluator interface {
	Evaluate(x []float64, f []float64) (violation float64, err error)
}

// EvaluatorFunc adapts a stateless function to Evaluator.
type EvaluatorFunc func(x, f []float64) (float64, error)

// Evaluate calls e.
func (e EvaluatorFunc) Evaluate(x, f []float64) (float64, error) { return e(x, f) }

// Objective is one objective of a search: a name and its sense. Its
// fields and JSON are run.Objective's, so a problem's objectives
// fingerprint alike in either type.
type Objective struct {
	Name     string `json:"name"`
	Maximize bool   `json:"maximize"`
}
