package slurm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
	cases := []struct {
		expr string
		want []string
	}{
		{"", nil},
		{"node01", []string{"node01"}},
		{"node[01-03]", []string{"node01", "node02", "node03"}},
		{"node[001-003,100]", []string{"node001", "node002", "node003", "node100"}},
		{"node[9-11]", []string{"node9", "node10", "node11"}},
		{"node[09-11]", []string{"node09", "node10", "node11"}},
		{"node[98-101]", []string{"node98", "node99", "node100", "node101"}},
		{"a[1-2],b3,c[07]", []string{"a1", "a2", "b3", "c07"}},
		{"rack[1-2]n[01-02]", []string{"rack1n01", "rack1n02", "rack2n01", "rack2n02"}},
		{"n[1-2]-ib", []string{"n1-ib", "n2-ib"}},
		{"login, gpu[1-2]", []string{"login", "gpu1", "gpu2"}},
		{"x[3,1]", []string{"x3", "x1"}},
		{"n[0-0]", []string{"n0"}},
	}
	for _, c := range cases {
		got, err := ExpandHostlist(c.expr)
		if err != nil {
			t.Errorf("ExpandHostlist(%q): %v", c.expr, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ExpandHostlist(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
	// node[001-096,100]: 97 names, all three digits wide.
	got, err := ExpandHostlist("node[001-096,100]")
	if err != nil || len(got) != 97 || got[95] != "node096" || got[96] != "node100" {
		t.Errorf("node[001-096,100]: %d names, err %v", len(got), err)
	}
}

func TestExpandHostlistErrors(t *testing.T) {
	for _, expr := range []string{
		"node[1-", "node1]", "node[[1]]", "node[]", "node[a-b]", "node[3-1]", "node[1-2-3]",
		"a,,b", "node[-1]", "node[1,]", "n[0-99999999999]", "n[1-1000][1-1000000]",
		"n[1234567890123456789]", "a b",
	} {
		got, err := ExpandHostlist(expr)
		if err == nil {
			t.Errorf("ExpandHostlist(%q) = %d names, want an error", expr, len(got))
		} else if !errors.Is(err, ErrHostlist) {
			t.Errorf("ExpandHostlist(%q): error %v does not match ErrHostlist", expr, err)
		}
	}
}

func TestCompressHostlist(t *testing.T) {
	cases := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"node05"}, "node05"},
		{[]string{"node01", "node02", "node03", "node05"}, "node[01-03,05]"},
		{[]string{"node03", "node01", "node02", "node02"}, "node[01-03]"},
		{[]string{"node09", "node10", "node11"}, "node[09-11]"},
		{[]string{"node9", "node10", "node11"}, "node[9-11]"},
		{[]string{"gpu2", "login", "gpu1", "node001"}, "gpu[1-2],node001,login"},
		{[]string{"n1", "n01"}, "n1,n01"},
		{[]string{"rack1n01", "rack1n02", "rack2n01"}, "rack1n[01-02],rack2n01"},
	}
	for _, c := range cases {
		got, err := CompressHostlist(c.names)
		if err != nil || got != c.want {
			t.Errorf("CompressHostlist(%q) = %q, %v; want %q", c.names, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "a,b", "a[1]", "a b"} {
		if _, err := CompressHostlist([]string{"ok1", bad}); err == nil {
			t.Errorf("CompressHostlist with %q: no error", bad)
		}
	}
}

// sortedUnique is what Compress then Expand must give back: the names
// deduplicated, in Compress's order (checked separately by re-compressing).
func sortedUnique(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func checkRoundTrip(t *testing.T, names []string) {
	t.Helper()
	expr, err := CompressHostlist(names)
	if err != nil {
		t.Fatalf("CompressHostlist(%q): %v", names, err)
	}
	back, err := ExpandHostlist(expr)
	if err != nil {
		t.Fatalf("ExpandHostlist(CompressHostlist(%q) = %q): %v", names, expr, err)
	}
	got := append([]string(nil), back...)
	sort.Strings(got)
	if want := sortedUnique(names); !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip of %q through %q gave %q", names, expr, back)
	}
	if len(back) != len(sortedUnique(back)) {
		t.Fatalf("%q expands with duplicates: %q", expr, back)
	}
	// Compressing the expansion gives the same expression.
	if again, err := CompressHostlist(back); err != nil || again != expr {
		t.Fatalf("CompressHostlist(Expand(%q)) = %q, %v", expr, again, err)
	}
}

func TestHostlistRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2205))
	prefixes := []string{"node", "gpu", "rack1n", "n", "login", "a-b"}
	for i := 0; i < 2000; i++ {
		var names []string
		for k := rng.IntN(40); k >= 0; k-- {
			p := prefixes[rng.IntN(len(prefixes))]
			switch rng.IntN(5) {
			case 0:
				names = append(names, fmt.Sprintf("%s%d", p, rng.IntN(120)))
			case 1:
				names = append(names, fmt.Sprintf("%s%02d", p, rng.IntN(120)))
			case 2:
				names = append(names, fmt.Sprintf("%s%03d", p, rng.IntN(1200)))
			case 3:
				names = append(names, p)
			default:
				names = append(names, fmt.Sprintf("%s%04d", p, rng.IntN(30)))
			}
		}
		checkRoundTrip(t, names)
	}
	// A full padded range compresses to one bracket.
	var names []string
	for i := 1; i <= 96; i++ {
		names = append(names, fmt.Sprintf("node%03d", i))
	}
	names = append(names, "node100")
	if got, _ := CompressHostlist(names); got != "node[001-096,100]" {
		t.Errorf("got %q", got)
	}
}

func FuzzHostlist(f *testing.F) {
	for _, s := range []string{"node[001-096,100]", "a[1-2],b3", "rack[1-2]n[01-02]", "n[9-11]", "x", "", "n[1,3-5]-ib,login"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 200 {
			return
		}
		names, err := ExpandHostlist(expr)
		if err != nil {
			return
		}
		if len(names) > 5000 {
			return
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, ",[] \t\n\r") {
				return // not representable as a hostlist name: Compress refuses it
			}
		}
		checkRoundTrip(t, names)
	})
}
