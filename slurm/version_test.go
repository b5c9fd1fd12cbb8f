package slurm

import "testing"

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in        string
		want      Version
		json, cmd bool
	}{
		{"slurm 22.05.8\n", Version{22, 5, 8}, true, false},
		{"slurm-wlm 22.05.8\n", Version{22, 5, 8}, true, false},
		{"slurm 20.11.9", Version{20, 11, 9}, false, false},
		{"slurm 21.08.0", Version{21, 8, 0}, true, false},
		{"slurm 23.02.7", Version{23, 2, 7}, true, false},
		{"slurm 23.11.0-0rc1", Version{23, 11, 0}, true, false},
		{"24.05", Version{24, 5, 0}, true, true},
		{"slurm 25.05.1", Version{25, 5, 1}, true, true},
	}
	for _, c := range cases {
		v, err := ParseVersion(c.in)
		if err != nil || v != c.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", c.in, v, err, c.want)
			continue
		}
		if v.HasJSON() != c.json || v.HasPowerCommand() != c.cmd {
			t.Errorf("%v: HasJSON %v HasPowerCommand %v", v, v.HasJSON(), v.HasPowerCommand())
		}
	}
	if got := (Version{22, 5, 8}).String(); got != "22.05.8" {
		t.Errorf("String() = %q", got)
	}
	for _, bad := range []string{"", "slurm", "slurm x.y", "slurm 22", "slurm .05.8"} {
		if v, err := ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", bad, v)
		}
	}
}
