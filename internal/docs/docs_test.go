package docs

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module root, relative to this package's directory.
const root = "../.."

// maxReadmeLines is the most lines README.md may have: what a newcomer
// reads first; the rest belongs in docs/.
const maxReadmeLines = 250

// staleDesign is the file name of the starting design, which lived
// outside the repository; the code cites docs/architecture.md instead.
// Built so that this file does not name it itself.
var staleDesign = "DESIGN" + ".md"

// page is a Markdown file of the repository: its path relative to the
// module root (slash-separated) and its text.
type page struct {
	rel  string
	text string
}

// readPages reads README.md and every docs/*.md.
func readPages(t *testing.T) []page {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	rels := []string{"README.md"}
	for _, n := range names {
		rels = append(rels, "docs/"+filepath.Base(n))
	}
	var pages []page
	for _, rel := range rels {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page{rel: rel, text: string(b)})
	}
	return pages
}

var (
	fence    = regexp.MustCompile("(?ms)^```.*?^```[^\n]*$")
	codeSpan = regexp.MustCompile("`[^`\n]*`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

// links returns the link targets of a Markdown text, leaving out fenced
// code blocks and code spans, where brackets are not links.
func links(text string) []string {
	text = fence.ReplaceAllString(text, "")
	text = codeSpan.ReplaceAllString(text, "")
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// isRelative reports whether a link target names a file of the
// repository (not a URL, not an anchor of the same page).
func isRelative(target string) bool {
	if strings.HasPrefix(target, "#") {
		return false
	}
	return !strings.Contains(target, "://") && !strings.HasPrefix(target, "mailto:")
}

// resolve returns the module-relative path a relative link of page from
// leads to, and its anchor ("" without one).
func resolve(from, target string) (rel, anchor string) {
	file, anchor, _ := strings.Cut(target, "#")
	return path.Clean(path.Join(path.Dir(from), file)), anchor
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// other than '-' and '_' dropped, spaces made '-'.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && r != '—' && r != '–' && r != '…':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown text.
func anchors(text string) []string {
	text = fence.ReplaceAllString(text, "")
	var out []string
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		out = append(out, slug(m[1]))
	}
	return out
}

func TestDocs(t *testing.T) {
	pages := readPages(t)
	readme := pages[0]

	t.Run("every page linked from README", func(t *testing.T) {
		linked := map[string]bool{}
		for _, l := range links(readme.text) {
			if isRelative(l) {
				rel, _ := resolve(readme.rel, l)
				linked[rel] = true
			}
		}
		for _, p := range pages[1:] {
			if !linked[p.rel] {
				t.Errorf("%s is not linked from README.md", p.rel)
			}
		}
	})

	t.Run("relative links resolve", func(t *testing.T) {
		for _, p := range pages {
			for _, l := range links(p.text) {
				if !isRelative(l) {
					continue
				}
				rel, _ := resolve(p.rel, l)
				if strings.HasPrefix(rel, "../") {
					t.Errorf("%s: link %q leaves the repository", p.rel, l)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					t.Errorf("%s: link %q: %v", p.rel, l, err)
				}
			}
		}
	})

	t.Run("anchors exist", func(t *testing.T) {
		byRel := map[string][]string{}
		for _, p := range pages {
			byRel[p.rel] = anchors(p.text)
		}
		for _, p := range pages {
			for _, l := range links(p.text) {
				target := l
				if strings.HasPrefix(l, "#") {
					target = path.Base(p.rel) + l
				} else if !isRelative(l) {
					continue
				}
				rel, anchor := resolve(p.rel, target)
				have, isPage := byRel[rel]
				if anchor == "" || !isPage {
					continue
				}
				if !slices.Contains(have, anchor) {
					t.Errorf("%s: link %q: %s has no heading with anchor #%s", p.rel, l, rel, anchor)
				}
			}
		}
	})

	t.Run("README short", func(t *testing.T) {
		n := strings.Count(readme.text, "\n")
		if !strings.HasSuffix(readme.text, "\n") {
			n++
		}
		if n > maxReadmeLines {
			t.Errorf("README.md has %d lines, more than %d: move detail into docs/", n, maxReadmeLines)
		}
	})

	t.Run("design cited as docs/architecture.md", func(t *testing.T) {
		files, err := trackedFiles()
		if err != nil {
			t.Skipf("no git checkout to list the tracked files: %v", err)
		}
		var offenders []string
		for _, rel := range files {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				if os.IsNotExist(err) {
					continue // deleted in the work tree, not yet in the index
				}
				t.Fatal(err)
			}
			if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
				continue // binary
			}
			for i, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, staleDesign) {
					offenders = append(offenders, fmt.Sprintf("%s:%d", rel, i+1))
				}
			}
		}
		if len(offenders) > 0 {
			t.Errorf("%d lines name %s, the starting design outside the repository; cite docs/architecture.md instead:\n\t%s",
				len(offenders), staleDesign, strings.Join(offenders, "\n\t"))
		}
	})
}

// trackedFiles lists the files git tracks in the module, relative to its
// root.
func trackedFiles() ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}
