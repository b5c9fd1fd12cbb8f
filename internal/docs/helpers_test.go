package docs

import (
	"slices"
	"testing"
)

// The helpers the checks rest on: a link inside code is no link, and
// anchors are GitHub's.
func TestHelpers(t *testing.T) {
	linkCases := []struct {
		text string
		want []string
	}{
		{"[a](x.md) and ![b](img/y.png)", []string{"x.md", "img/y.png"}},
		{"`[a](code.md)` is code", nil},
		{"```\n[a](fenced.md)\n```\n[b](after.md)", []string{"after.md"}},
		{"[web](https://example.org/x) [here](#top)", []string{"https://example.org/x", "#top"}},
	}
	for _, c := range linkCases {
		if got := links(c.text); !slices.Equal(got, c.want) {
			t.Errorf("links(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	slugCases := []struct{ heading, want string }{
		{"Comparing policies: `tune --policies` and `--seeds`", "comparing-policies-tune---policies-and---seeds"},
		{"The hybrid genetic-fuzzy policy (`hgfs`)", "the-hybrid-genetic-fuzzy-policy-hgfs"},
		{"ecotune — architecture", "ecotune--architecture"},
	}
	for _, c := range slugCases {
		if got := slug(c.heading); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
	relCases := []struct {
		from, target, rel, anchor string
	}{
		{"README.md", "docs/cli.md#sample-traces", "docs/cli.md", "sample-traces"},
		{"docs/tuning.md", "../README.md#commands", "README.md", "commands"},
		{"docs/clusters.md", "clusters/osc-escs.yaml", "docs/clusters/osc-escs.yaml", ""},
	}
	for _, c := range relCases {
		if rel, anchor := resolve(c.from, c.target); rel != c.rel || anchor != c.anchor {
			t.Errorf("resolve(%q, %q) = %q, %q, want %q, %q", c.from, c.target, rel, anchor, c.rel, c.anchor)
		}
	}
}
