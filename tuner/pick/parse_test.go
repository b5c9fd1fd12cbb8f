package pick

import (
	"slices"
	"testing"
)

func TestParsePickLoads(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []float64
		wantErr string
	}{
		{"0.5", []float64{0.5}, ""},
		{"0.5, 0.75", []float64{0.5, 0.75}, ""},
		{"1", []float64{1}, ""},
		{"half", nil, `"half" is not a number`},
		{"0.5,", nil, `"" is not a number`},
	} {
		got, err := ParsePickLoads(tc.in)
		switch {
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("ParsePickLoads(%q) error %v, want %q", tc.in, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("ParsePickLoads(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	// ValidPickLoads' refusals come through: 0 and 1.5 are no fractions.
	for _, in := range []string{"0", "1.5", "0.5,1"} {
		if _, err := ParsePickLoads(in); err == nil || ValidPickLoads(mustFloats(t, in)) == nil {
			t.Errorf("ParsePickLoads(%q) accepted what ValidPickLoads refuses", in)
		}
	}
}

func mustFloats(t *testing.T, in string) []float64 {
	t.Helper()
	switch in {
	case "0":
		return []float64{0}
	case "1.5":
		return []float64{1.5}
	}
	return []float64{0.5, 1}
}
