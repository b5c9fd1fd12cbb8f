package datasets

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestAnonymizerName checks names against HMAC-SHA256 computed here, and
// that kinds and keys give different names.
func TestAnonymizerName(t *testing.T) {
	a, err := NewAnonymizer([]byte("k1"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, []byte("k1"))
	mac.Write([]byte("u_\x00alice"))
	want := "u_" + hex.EncodeToString(mac.Sum(nil))[:12]
	for range 2 { // the second from the cache
		if got := a.Name(AnonUser, "alice"); got != want {
			t.Errorf("Name(user, alice) = %q, want %q", got, want)
		}
	}
	if a.Name(AnonUser, "") != "" {
		t.Error("an unknown name did not stay empty")
	}
	if a.Name(AnonGroup, "alice") == strings.Replace(want, "u_", "g_", 1) {
		t.Error("a group named like a user has the user's hash")
	}
	b, _ := NewAnonymizer([]byte("k2"))
	if b.Name(AnonUser, "alice") == want {
		t.Error("two keys give the same name")
	}
	if _, err := NewAnonymizer(nil); err == nil {
		t.Error("an empty key was accepted")
	}
}

// TestImportAnonymize imports a sacct log whose names are all distinctive
// words: none of them may appear in the Parquet file's bytes (footer,
// metadata) nor in any value read back; the layout keeps its shape; the
// same key gives the same names again, another key other names.
func TestImportAnonymize(t *testing.T) {
	secrets := []string{"alicesecret", "labsecret", "gpusecret", "hostsecret"}
	log := strings.NewReplacer("alice", "alicesecret", "|lab|", "|labsecret|", "batch", "gpusecret").
		Replace(sacctLog(
			[6]string{"1", "4", "128", "hostsecret[1-4]", "0", "60"},
			[6]string{"2", "1", "32", "hostsecret1", "60", "90"},
		))
	dir := t.TempDir()
	in := filepath.Join(dir, "sacct.log")
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if !strings.Contains(log, s) {
			t.Fatalf("the log lacks %q:\n%s", s, log)
		}
	}
	// The check can fail: without anonymization every name is in the
	// values read back, and the host names are in the raw bytes.
	plain := filepath.Join(dir, "plain.parquet")
	if _, err := Import([]string{in}, plain, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(plain)
	tr, err := ReadParquetFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(tr)
	for _, s := range secrets {
		if !bytes.Contains(text, []byte(s)) {
			t.Errorf("plain import: %q not in the values read back", s)
		}
	}
	if !bytes.Contains(raw, []byte("hostsecret")) {
		t.Error("plain import: host names not in the raw bytes")
	}

	importWith := func(name, key string) *Trace {
		t.Helper()
		a, err := NewAnonymizer([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name)
		if _, err := Import([]string{in}, out, ImportOptions{Anonymize: a}); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadParquetFile(out)
		if err != nil {
			t.Fatal(err)
		}
		text, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(raw, []byte(s)) || bytes.Contains(text, []byte(s)) {
				t.Errorf("%s: %q in the output", name, s)
			}
		}
		return tr
	}
	a1, a2, b := importWith("a1.parquet", "key-a"), importWith("a2.parquet", "key-a"), importWith("b.parquet", "key-b")
	if len(a1.Jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(a1.Jobs))
	}
	for _, j := range a1.Jobs {
		if !strings.HasPrefix(j.User, AnonUser) || !strings.HasPrefix(j.Group, AnonGroup) || !strings.HasPrefix(j.Queue, AnonQueue) {
			t.Errorf("job %d: user %q, group %q, queue %q", j.ID, j.User, j.Group, j.Queue)
		}
	}
	if len(a1.Meta.Layout) != 1 || a1.Meta.Layout[0].Count != 4 || a1.Meta.Layout[0].Slots != 32 {
		t.Errorf("layout %+v, want 4 nodes of 32 slots", a1.Meta.Layout)
	}
	hosts, err := ExpandHostList(a1.Meta.Layout[0].Hosts)
	if err != nil || len(hosts) != 4 {
		t.Fatalf("hosts %q: %v", a1.Meta.Layout[0].Hosts, err)
	}
	for _, h := range hosts {
		if !strings.HasPrefix(h, AnonNode) {
			t.Errorf("host %q", h)
		}
	}
	if !reflect.DeepEqual(a1.Jobs, a2.Jobs) || !reflect.DeepEqual(a1.Meta.Layout, a2.Meta.Layout) {
		t.Error("the same key gave different names")
	}
	if b.Jobs[0].User == a1.Jobs[0].User || b.Meta.Layout[0].Hosts == a1.Meta.Layout[0].Hosts {
		t.Error("two keys gave the same names")
	}
}
