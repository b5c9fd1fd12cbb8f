package datasets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

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

// lexIntField agrees with lexField and, where it reports a plain integer,
// with lexNumber (its reference): the same bounds, the same value, no
// fraction. Fields: lexNumber's cases, and random signed digit strings of
// 1 to 20 digits (beyond 18 it must defer to lexNumber), between random
// separators.
func TestLexIntFieldMatchesLexNumber(t *testing.T) {
	fields := []string{"0", "42", "-1", "+7", "-0", "1234.56", "5.", ".5", "1e3", "9223372036854775807",
		"99999999999999999999", "-", "+", ".", "1x0", "12-", "NaN", "--1", "+-2", "999999999999999999", "-999999999999999999"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := []byte{}
		switch rng.IntN(3) {
		case 0:
			b = append(b, '-')
		case 1:
			b = append(b, '+')
		}
		for range 1 + rng.IntN(20) {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		fields = append(fields, string(b))
	}
	seps := []string{" ", "\t", "  \t", "\r", "\v\f "}
	var line []byte
	for i, f := range fields {
		line = append(line, seps[i%len(seps)]...)
		line = append(line, f...)
	}
	line = append(line, " \r"...)
	n := 0
	for e := 0; ; n++ {
		ws, we := lexField(line, e)
		s, e2, v, ok := lexIntField(line, e)
		if s != ws || e2 != we {
			t.Fatalf("field %d: lexIntField bounds %d..%d, lexField %d..%d", n, s, e2, ws, we)
		}
		if s == e2 {
			break
		}
		if ok {
			rv, frac, rok := lexNumber(line[s:e2])
			if !rok || frac || rv != v {
				t.Errorf("%q: lexIntField %d, lexNumber %d, %v, %v", line[s:e2], v, rv, frac, rok)
			}
		} else if digits := strings.TrimLeft(string(line[s:e2]), "+-"); len(digits) <= 18 && len(digits) > 0 && strings.Trim(digits, "0123456789") == "" && len(line[s:e2])-len(digits) <= 1 {
			t.Errorf("%q: a plain integer not recognised", line[s:e2])
		}
		e = e2
	}
	if n != len(fields) {
		t.Errorf("%d fields read, %d written", n, len(fields))
	}
}
