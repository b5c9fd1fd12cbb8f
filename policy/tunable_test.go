package policy

import (
	"strings"
	"testing"
)

func TestCheckTunable(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string // "" for no error, else a part of the error
	}{
		{[]string{"idle-timeout"}, ""},
		{[]string{"idle-timeout", "hgfs", "eecluster"}, ""},
		{nil, "no policies"},
		{[]string{"idle-timeout", "nope"}, `unknown policy "nope"`},
		{[]string{"idle-timeout", "always-on"}, "always-on is a reference"},
		{[]string{"oracle"}, "oracle is a reference"},
		{[]string{"hgfs", "idle-timeout", "hgfs"}, "hgfs chosen twice"},
	} {
		err := CheckTunable(c.names)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckTunable(%q) = %v, want %q", c.names, err, c.want)
		}
	}
}
