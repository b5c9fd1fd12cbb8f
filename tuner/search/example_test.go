package search_test

import (
	"context"
	"fmt"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

func ExampleHypervolume() {
	// Three points of a 2-objective front with reference (4, 4): strips of
	// 3×1, 2×1 and 1×1.
	front := [][]float64{{1, 3}, {2, 2}, {3, 1}}
	fmt.Println(search.Hypervolume(front, []float64{4, 4}))
	// Output: 6
}

func ExampleMinimize() {
	res, err := search.Minimize(context.Background(), testproblems.ZDT1(), search.Settings{
		Generations: 250,
		Seed:        1,
	}, search.NSGA2{Population: 100, Islands: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	var pts [][]float64
	for _, m := range res.Archive {
		pts = append(pts, m.F)
	}
	hv := search.Hypervolume(pts, []float64{1, 1})
	fmt.Printf("%d generations; hypervolume within 1 %% of the true front's 2/3: %v\n", res.Generations, hv > 0.99*2/3)
	// Output: 250 generations; hypervolume within 1 % of the true front's 2/3: true
}
