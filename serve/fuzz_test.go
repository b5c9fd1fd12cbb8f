package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// FuzzParseRequest feeds the simulation and tuning forms' fields to the
// server's parser: it never panics, and what it accepts is a request the
// runner can start (known policies and scheduler, parameters in bounds,
// settings in range, presets that parse, a trace ID that names no path,
// a cluster file that sim.ParseCluster reads, a known power model).
// testdata/fuzz/FuzzParseRequest holds more seeds (cluster files).
func FuzzParseRequest(f *testing.F) {
	f.Add("tune", "embedded", "hgfs", "", "easy", "1", "300", "150", "32", "2", "qos0.1=qos_p90<=0.1\nknee", "", "", "", "", "")
	f.Add("simulate", "0123456789abcdef", "idle-timeout", "", "fcfs", "0", "", "", "", "", "", "idle_timeout", "600", "", "", "")
	f.Add("simulate", "../../etc/passwd", "idle-timeout", "", "", "", "", "", "", "", "", "idle_timeout", "1e400", "", "", "")
	f.Add("tune", "", "always-on", "", "sjf", "x", "-1", "0", "3", "1000", "=", "", "", "", "", "")
	f.Add("tune", "embedded", "idle-timeout", "load", "easy", "1", "0", "3", "8", "2", "", "", "", "file", "groups:\n  - {name: n, count: 128, slots: 1, model: escs}\n", "")
	f.Add("simulate", "embedded", "idle-timeout", "", "", "", "", "", "", "", "", "", "", "trace", "", "escs")
	f.Fuzz(func(t *testing.T, kind, trace, pol, pol2, sched, seed, evals, gens, pop, islands, presets, param, value, cluster, clusterText, model string) {
		if kind != KindTune {
			kind = KindSimulate
		}
		v := url.Values{"trace": {trace}, "policy": {pol}, "scheduler": {sched}, "seed": {seed}, "evaluations": {evals},
			"generations": {gens}, "population": {pop}, "islands": {islands}, "presets": {presets}, "param." + param: {value},
			"cluster": {cluster}, "cluster_text": {clusterText}, "model": {model}}
		if pol2 != "" {
			v["policy"] = append(v["policy"], pol2)
		}
		req, err := ParseRequest(kind, v)
		if err != nil {
			if err.Error() == "" {
				t.Error("an empty error message")
			}
			return
		}
		if req.Trace != EmbeddedTrace && !validID(req.Trace) {
			t.Errorf("accepted trace %q", req.Trace)
		}
		if strings.ContainsAny(req.Trace, `./\`) {
			t.Errorf("trace %q could be a path", req.Trace)
		}
		switch req.Cluster {
		case "":
			if req.ClusterText != "" {
				t.Errorf("kept cluster text %q for the trace's cluster", req.ClusterText)
			}
			if req.Model != "" {
				if _, err := sim.Model(req.Model); err != nil || kind == KindTune || req.Model == defaultModel {
					t.Errorf("accepted model %q for %s: %v", req.Model, kind, err)
				}
			}
		case ClusterFile:
			if _, err := sim.ParseCluster([]byte(req.ClusterText)); err != nil || len(req.ClusterText) > maxClusterText || req.Model != "" {
				t.Errorf("accepted cluster file %q, model %q: %v", req.ClusterText, req.Model, err)
			}
		default:
			t.Errorf("accepted cluster %q", req.Cluster)
		}
		if len(req.Policies) > 0 {
			seen := map[string]bool{}
			for _, p := range req.Policies {
				sp, err := policy.Lookup(p)
				if err != nil || seen[p] || sp.Clairvoyant || p == scoring.AlwaysOn {
					t.Errorf("accepted policies %v: %v", req.Policies, err)
				}
				seen[p] = true
			}
			if kind != KindTune || len(req.Policies) < 2 || req.Policy != "" {
				t.Errorf("accepted policies %v (policy %q) for %s", req.Policies, req.Policy, kind)
			}
		} else if _, err := policy.Lookup(req.Policy); err != nil {
			t.Errorf("accepted policy %q: %v", req.Policy, err)
			return
		}
		if req.Scheduler != sim.EASY && req.Scheduler != sim.FCFS && req.Scheduler != sim.Conservative {
			t.Errorf("accepted scheduler %q", req.Scheduler)
		}
		if kind == KindSimulate {
			spec, _ := policy.Lookup(req.Policy)
			if _, err := policy.ParseSet(spec, setArgs(req.Set)); err != nil {
				t.Errorf("accepted parameters %v: %v", req.Set, err)
			}
			return
		}
		if req.Evaluations < 0 || req.Evaluations > maxEvaluations || req.Generations < 1 || req.Population < 4 || req.Islands < 1 || req.Islands > maxIslands {
			t.Errorf("accepted settings %+v", req)
		}
		for _, p := range req.Presets {
			if _, err := pick.ParsePreset(p); err != nil {
				t.Errorf("accepted preset %q: %v", p, err)
			}
		}
	})
}

// FuzzDisplayName: a client's file name shown on the page keeps no path
// separator and no control character.
func FuzzDisplayName(f *testing.F) {
	for _, s := range []string{"../../evil.swf", `..\x`, "a/b/c.gz", "..", "", "\x00\n.swf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := displayName(s)
		if d == "" || d == "." || d == ".." || strings.ContainsAny(d, "/\\\x00\n\r") {
			t.Errorf("displayName(%q) = %q", s, d)
		}
	})
}

// FuzzHandler sends requests with fuzzed paths, queries and form bodies
// (with the right tokens) to a server holding one finished run: no
// answer is a 5xx or shows a stack, and no file outside the run's own
// directory is ever served.
func FuzzHandler(f *testing.F) {
	for _, s := range [][3]string{
		{"GET", "/runs/00000000000000aa/files/job.json", ""},
		{"GET", "/runs/00000000000000aa/files/../secret.txt", ""},
		{"GET", "/runs/00000000000000aa/files/%2e%2e/%2e%2e/secret.txt", ""},
		{"GET", "/runs/00000000000000aa/export?pick=knee", ""},
		{"GET", "/runs/00000000000000aa/front/0.svg", ""},
		{"GET", "/compare?run=00000000000000aa&run=x", ""},
		{"GET", "/compare/front.svg?run=00000000000000aa", ""},
		{"GET", "/traces/embedded", ""},
		{"GET", "/simulate?policy=hgfs&trace=../x", ""},
		{"GET", "/tune?policy=nope", ""},
		{"POST", "/runs/00000000000000aa/abort", ""},
		{"POST", "/runs/ffffffffffffffff/delete", ""},
		{"POST", "/simulate", "policy=nope&param.x=1"},
		{"POST", "/tune", "policy=idle-timeout&evaluations=-1"},
		{"POST", "/traces", "x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	data := f.TempDir()
	if err := os.WriteFile(filepath.Join(data, "secret.txt"), []byte("SECRET-OUTSIDE-THE-RUN"), 0o666); err != nil {
		f.Fatal(err)
	}
	fakeRunTB(f, data)
	s, err := New(Options{Data: data, Log: io.Discard, Jobs: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if method != http.MethodPost {
			method = http.MethodGet
		}
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \t\r\n#") {
			return
		}
		if method == http.MethodPost && (strings.HasPrefix(target, "/tune") || strings.HasPrefix(target, "/simulate")) {
			v, err := url.ParseQuery(body)
			if err == nil {
				if _, err := ParseRequest(KindTune, v); err == nil {
					return // a valid form would start a run
				}
				if _, err := ParseRequest(KindSimulate, v); err == nil {
					return
				}
			}
		}
		if strings.Contains(target, "delete") && strings.Contains(target, "00000000000000aa") {
			return // keep the run
		}
		req, err := http.NewRequest(method, "http://127.0.0.1"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+s.Token())
		req.Header.Set("X-CSRF-Token", s.csrf)
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		out := w.Body.String()
		if w.Code >= 500 {
			t.Errorf("%s %s: %d: %s", method, target, w.Code, out)
		}
		if strings.Contains(out, "SECRET-OUTSIDE") || strings.Contains(out, "goroutine ") {
			t.Errorf("%s %s: served %q", method, target, out)
		}
	})
}
