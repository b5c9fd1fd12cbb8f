package exchange_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/ecotune/ecotune/tuner/exchange"
	"github.com/ecotune/ecotune/tuner/search"
)

// Two islands swap their migrants at the migration of generation 5
// through files beneath a run directory.
func ExampleFileExchange() {
	dir, _ := os.MkdirTemp("", "exchange")
	defer os.RemoveAll(dir)
	done := make(chan map[int][]search.Member)
	for i := range 2 {
		go func() {
			x := &exchange.FileExchange{Dir: dir, Fingerprint: "plan", MigrationEvery: 5, Timeout: 10 * time.Second}
			got, err := x.Migrate(context.Background(), 5, i, []search.Member{{X: []float64{float64(i)}}}, []int{1 - i})
			if err != nil {
				panic(err)
			}
			if i == 0 {
				done <- got
			}
		}()
	}
	fmt.Println("island 0 received", (<-done)[1][0].X)
	// Output:
	// island 0 received [1]
}
