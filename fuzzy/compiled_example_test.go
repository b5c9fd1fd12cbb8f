package fuzzy_test

import (
	"fmt"

	"github.com/ecotune/ecotune/fuzzy"
)

// A policy that evaluates one rule base at every decision compiles it once.
func ExampleSystem_Compile() {
	lh := []string{"low", "high"}
	s := &fuzzy.System{
		Inputs:    []fuzzy.Variable{{Name: "load", Min: 0, Max: 1, Labels: lh}},
		Output:    fuzzy.Variable{Name: "spare", Min: 0, Max: 10, Labels: lh},
		Rules:     []fuzzy.Rule{{If: []int{0}, Then: 0}, {If: []int{1}, Then: 1}},
		Inference: fuzzy.TSK,
	}
	c, err := s.Compile()
	if err != nil {
		panic(err)
	}
	for _, load := range []float64{0, 0.25, 0.9} {
		// load 0.25 is 0.75 low (spare 0) and 0.25 high (spare 10): 2.5.
		fmt.Printf("load %.2f: spare %.1f (System.Eval %.1f)\n", load, c.Eval([]float64{load}), s.Eval([]float64{load}))
	}
	// Output:
	// load 0.00: spare 0.0 (System.Eval 0.0)
	// load 0.25: spare 2.5 (System.Eval 2.5)
	// load 0.90: spare 9.0 (System.Eval 9.0)
}
