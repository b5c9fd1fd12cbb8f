package hostlist

import (
	"errors"
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	cases := []struct {
		expr string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"node01", []string{"node01"}},
		{"node[01-03]", []string{"node01", "node02", "node03"}},
		{"node[9-11]", []string{"node9", "node10", "node11"}},
		{"node[09-11]", []string{"node09", "node10", "node11"}},
		{"a[1-2],b3,c[07]", []string{"a1", "a2", "b3", "c07"}},
		{"rack[1-2]n[01-02]", []string{"rack1n01", "rack1n02", "rack2n01", "rack2n02"}},
		{"n[1-2]-ib", []string{"n1-ib", "n2-ib"}},
		{"login, gpu[1-2]", []string{"login", "gpu1", "gpu2"}},
		{"x[3,1],x3", []string{"x3", "x1", "x3"}},
	}
	for _, c := range cases {
		got, err := Expand(c.expr)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Expand(%q) = %q, %v; want %q", c.expr, got, err, c.want)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	for _, expr := range []string{
		"node[1-", "node1]", "node[[1]]", "node[]", "node[a-b]", "node[3-1]", "node[1-2-3]",
		"a,,b", "a,", "node[-1]", "node[1,]", "n[0-99999999999]", "n[1-1000][1-1000000]",
		"n[1234567890123456789]", "a b",
	} {
		if got, err := Expand(expr); !errors.Is(err, ErrSyntax) {
			t.Errorf("Expand(%q) = %d names, %v; want an ErrSyntax", expr, len(got), err)
		}
	}
}

// TestNamesReuse: a Names expands a second expression into the first's
// buffers, and an error leaves no names behind.
func TestNamesReuse(t *testing.T) {
	var n Names
	for _, c := range []struct {
		expr string
		want int
	}{{"a[1-100]", 100}, {"b[1-2]", 2}, {"c[x]", 0}, {"d", 1}} {
		err := n.Expand(c.expr)
		if n.Len() != c.want || (err != nil) != (c.want == 0) {
			t.Errorf("Expand(%q): %d names, %v; want %d", c.expr, n.Len(), err, c.want)
		}
	}
	if got := string(n.Name(0)); got != "d" {
		t.Errorf("Name(0) = %q, want d", got)
	}
	allocs := testing.AllocsPerRun(10, func() { _ = n.Expand("a[1-50]") })
	if allocs > 0 {
		t.Errorf("a warm Expand allocates %v times", allocs)
	}
}

func TestCompress(t *testing.T) {
	cases := []struct {
		names      []string
		last, sort string // PlainLast's, PlainSorted's
	}{
		{nil, "", ""},
		{[]string{"node05"}, "node05", "node05"},
		{[]string{"node01", "node02", "node03", "node05"}, "node[01-03,05]", "node[01-03,05]"},
		{[]string{"node03", "node01", "node02", "node02"}, "node[01-03]", "node[01-03]"},
		{[]string{"node09", "node10", "node11"}, "node[09-11]", "node[09-11]"},
		{[]string{"node9", "node10", "node11"}, "node[9-11]", "node[9-11]"},
		{[]string{"gpu2", "login", "gpu1", "node001", "login"}, "gpu[1-2],node001,login", "gpu[1-2],login,node001"},
		{[]string{"n1", "n01"}, "n1,n01", "n1,n01"},
		{[]string{"rack1n01", "rack1n02", "rack2n01"}, "rack1n[01-02],rack2n01", "rack1n[01-02],rack2n01"},
		{[]string{"zz", "b1", "a"}, "b1,a,zz", "a,b1,zz"},
	}
	for _, c := range cases {
		for order, want := range []string{c.last, c.sort} {
			got, err := CompressOrder(c.names, Order(order))
			if err != nil || got != want {
				t.Errorf("CompressOrder(%q, %d) = %q, %v; want %q", c.names, order, got, err, want)
			}
		}
	}
	for _, bad := range []string{"", "a,b", "a[1]", "a b"} {
		if _, err := Compress([]string{"ok1", bad}); !errors.Is(err, ErrSyntax) {
			t.Errorf("Compress with %q: %v, want an ErrSyntax", bad, err)
		}
	}
}

// FuzzRoundTrip: whatever an expression expands to, compressing the names
// and expanding again gives them back deduplicated and sorted, and
// compressing that gives the same expression, in either order.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"node[001-096,100]", "a[1-2],b3", "rack[1-2]n[01-02]", "n[9-11],n08", "x", "", "n[1,3-5]-ib,login"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		names, err := Expand(expr)
		if err != nil || len(names) > 10000 {
			return
		}
		for _, order := range []Order{PlainLast, PlainSorted} {
			c, err := CompressOrder(names, order)
			if err != nil {
				return // names such as "a-" expanded from a range are fine; only writing rejects some
			}
			back, err := Expand(c)
			if err != nil {
				t.Fatalf("Expand(Compress(Expand(%q))) = Expand(%q): %v", expr, c, err)
			}
			if !sameSet(back, names) || hasDup(back) {
				t.Fatalf("%q → %q → %q: not the same names", expr, c, back)
			}
			if again, _ := CompressOrder(back, order); again != c {
				t.Fatalf("%q → %q → %q: compressing again gives %q", expr, c, back, again)
			}
		}
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

func hasDup(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}
