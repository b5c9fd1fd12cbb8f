package policy

import (
	"errors"
	"fmt"
)

// alwaysOnName is always-on's name: a reference, never tuned.
const alwaysOnName = "always-on"

// CheckTunable checks a list of policies to tune each and compare (`ecotune
// tune --policies`, the workbench's tune form): at least one, each
// registered, none a reference (always-on, or a clairvoyant policy such
// as the oracle: every tuned policy is compared with them already), none
// named twice. The error names the first policy at fault.
func CheckTunable(names []string) error {
	if len(names) == 0 {
		return errors.New("policy: no policies to tune")
	}
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		spec, err := Lookup(name)
		if err != nil {
			return err
		}
		if spec.Clairvoyant || name == alwaysOnName {
			return fmt.Errorf("policy: %s is a reference (always-on, the oracle), compared with every tuned policy already", name)
		}
		if seen[name] {
			return fmt.Errorf("policy: %s chosen twice", name)
		}
		seen[name] = true
	}
	return nil
}
