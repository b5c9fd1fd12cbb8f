//go:build !unix

package datasets

import "time"

// processCPU is 0 where getrusage is missing: no CPU metric.
func processCPU() time.Duration { return 0 }
