package datasets

import (
	"bufio"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// acctExpectedFormat is the format of a file under the traces directory,
// from where it lives: samples/<format>/..., nonstandard/ (the Argonne
// dialect), everything else SWF.
func acctExpectedFormat(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch {
	case parts[0] == "samples" && len(parts) > 2:
		return parts[1]
	case parts[0] == "nonstandard":
		return "argonne"
	}
	return "swf"
}

// acctHead returns the first 64 KiB of a file, decompressed.
func acctHead(t *testing.T, path string) []byte {
	t.Helper()
	head, err := bufio.NewReaderSize(acctOpen(t, path), acctHeadSize).Peek(acctHeadSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		t.Fatalf("%s: %v", path, err)
	}
	return head
}

// TestDetectEverySample runs every format's Detect on every trace file:
// Detect (the ordered choice the import uses) must name the right format,
// and each reader's own detector must match exactly the files of its
// format. detectSWF (the SWF reader's) must match every SWF file; it also
// accepts the Argonne dialect, which is SWF-shaped, and Formats() lists
// argonne first for that reason; that one overlap is logged, not failed.
func TestDetectEverySample(t *testing.T) {
	traces := acctTraces(t)
	n := 0
	err := filepath.WalkDir(traces, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") {
			return err
		}
		rel, _ := filepath.Rel(traces, path)
		want := acctExpectedFormat(rel)
		head := acctHead(t, path)
		if f, err := Detect(head); err != nil || f.Name != want {
			t.Errorf("%s: Detect = %q, %v; want %s", rel, f.Name, err, want)
		}
		var got []string
		for _, f := range Formats() {
			if f.Detect(head) {
				got = append(got, f.Name)
			}
		}
		if want == "argonne" && len(got) == 2 && got[0] == "argonne" && got[1] == "swf" {
			t.Logf("%s: detectSWF also accepts the Argonne dialect (Formats order decides)", rel)
			got = got[:1]
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: detected as %v, want exactly [%s]", rel, got, want)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 31 {
		t.Errorf("checked %d files, expected the 31 trace files", n)
	}
}

// TestDetectRejectsOtherText checks the accounting-log detectors on
// inputs close to their formats that are none of them (SWF among them).
func TestDetectRejectsOtherText(t *testing.T) {
	cases := []struct{ name, text string }{
		{"empty", ""},
		{"swf", "; MaxNodes: 128\n1 0 5 100 8 -1 -1 8 600 -1 1 3 1 -1 1 -1 -1 -1\n"},
		{"swf with tabs, relative time", "1\t0\t5\t100\t8\t-1\t-1\t8\t600\t-1\t1\t3\t1\t-1\t1\t-1\t-1\t-1\n"},
		{"csv", "a,b,c\n1,2,3\n"},
		{"json array", `[{"id": 1}]`},
		{"json without jobs", `{"resources": [], "submission_time": 1}`},
		{"pipes without times", "a|b|c|d|e|f|g|h|i|j|k\n"},
		{"colons, too few", "a:b:c:1:2:3\n"},
	}
	for _, c := range cases {
		for _, f := range Formats() {
			if f.Name != "swf" && f.Detect([]byte(c.text)) {
				t.Errorf("%s: %s matched %q", c.name, f.Name, c.text)
			}
		}
	}
}
