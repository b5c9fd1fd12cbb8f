package fuzzy_test

import (
	"fmt"

	"github.com/ecotune/ecotune/fuzzy"
)

func Example() {
	level := func(name string, hi float64, labels ...string) fuzzy.Variable {
		return fuzzy.Variable{Name: name, Min: 0, Max: hi, Labels: labels}
	}
	s := &fuzzy.System{
		Inputs:    []fuzzy.Variable{level("queued_slots", 64, "low", "high"), level("mean_wait", 3600, "short", "long")},
		Output:    level("idle_off", 8, "few", "many"),
		Inference: fuzzy.TSK,
	}
	for _, text := range []string{
		"IF queued_slots IS high AND mean_wait IS long THEN idle_off IS few",
		"IF queued_slots IS low THEN idle_off IS many",
	} {
		r, err := s.ParseRule(text)
		if err != nil {
			panic(err)
		}
		s.Rules = append(s.Rules, r)
	}
	if err := s.Validate(); err != nil {
		panic(err)
	}
	fmt.Print(s.Text())
	// queued 16 of 64 is 0.75 low, 0.25 high; a 2700 s wait is 0.75 long.
	// Strengths: rule 1 min(0.25, 0.75) = 0.25 → few (0); rule 2 0.75 → many (8).
	fmt.Printf("idle_off = %.1f\n", s.Eval([]float64{16, 2700}))
	// Output:
	// IF queued_slots IS high AND mean_wait IS long THEN idle_off IS few
	// IF queued_slots IS low THEN idle_off IS many
	// idle_off = 6.0
}
