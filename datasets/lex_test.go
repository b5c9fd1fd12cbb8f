package datasets

import "testing"

func TestLexNumber(t *testing.T) {
	tests := []struct {
		in       string
		v        int64
		frac, ok bool
	}{
		{"0", 0, false, true},
		{"42", 42, false, true},
		{"-1", -1, false, true},
		{"+7", 7, false, true},
		{"1234.56", 1235, true, true}, // rounds half away from zero
		{"1234.49", 1234, true, true},
		{"-2.5", -3, true, true},
		{"3.000", 3, false, true},
		{"5.", 5, false, true},
		{".5", 1, true, true},
		{"1e3", 1000, false, true},
		{"2.5E-1", 0, true, true},
		{"9223372036854775807", 9223372036854775807, false, true},
		{"99999999999999999999", 0, false, false}, // beyond int64
		{"", 0, false, false},
		{"-", 0, false, false},
		{".", 0, false, false},
		{"1x0", 0, false, false},
		{"12-", 0, false, false},
		{"NaN", 0, false, false},
	}
	for _, tt := range tests {
		v, frac, ok := lexNumber([]byte(tt.in))
		if v != tt.v || frac != tt.frac || ok != tt.ok {
			t.Errorf("lexNumber(%q) = %d, %v, %v; want %d, %v, %v", tt.in, v, frac, ok, tt.v, tt.frac, tt.ok)
		}
	}
}

func TestLexLeadingInt(t *testing.T) {
	tests := []struct {
		in string
		v  int64
		ok bool
	}{
		{"400 (48 interactive, 352 batch, 6 service, 10 I/O)", 400, true},
		{"184  ( 6,  171,   7)", 184, true},
		{" -28800", -28800, true},
		{"unknown", 0, false},
	}
	for _, tt := range tests {
		v, ok := lexLeadingInt(tt.in)
		if v != tt.v || ok != tt.ok {
			t.Errorf("lexLeadingInt(%q) = %d, %v; want %d, %v", tt.in, v, ok, tt.v, tt.ok)
		}
	}
}

func TestLexField(t *testing.T) {
	line := []byte(" \t12  -1\r")
	s, e := lexField(line, 0)
	if string(line[s:e]) != "12" {
		t.Fatalf("first field %q", line[s:e])
	}
	s, e = lexField(line, e)
	if string(line[s:e]) != "-1" {
		t.Fatalf("second field %q", line[s:e])
	}
	if s, e = lexField(line, e); s != e {
		t.Fatalf("third field %q, want none", line[s:e])
	}
}
