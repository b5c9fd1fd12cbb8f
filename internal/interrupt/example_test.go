package interrupt_test

import (
	"context"
	"fmt"
	"os"

	"github.com/ecotune/ecotune/internal/interrupt"
)

// Run hands the work a context that the first SIGINT or SIGTERM cancels;
// without a signal the work's own error comes back.
func ExampleRun() {
	err := interrupt.Run(context.Background(), os.Stderr, "count", "stopping: saving", func(ctx context.Context) error {
		fmt.Println("working; watched:", interrupt.Watched(ctx))
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// working; watched: true
	// error: <nil>
}
