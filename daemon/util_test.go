package daemon

import (
	"encoding/json"
	"fmt"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
