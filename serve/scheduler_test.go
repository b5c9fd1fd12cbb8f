package serve

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/sim"
)

// TestDefaultScheduler: both forms offer sim.DefaultScheduler selected,
// and a request without a scheduler replays with it, as the command line
// does (issue 35: the simulate form's default was FCFS).
func TestDefaultScheduler(t *testing.T) {
	for _, kind := range []string{KindSimulate, KindTune} {
		req, err := ParseRequest(kind, url.Values{"policy": {"idle-timeout"}})
		if err != nil {
			t.Fatal(err)
		}
		if req.Scheduler != sim.DefaultScheduler {
			t.Errorf("%s: scheduler %q, want %q", kind, req.Scheduler, sim.DefaultScheduler)
		}
	}
	ts := newTestServer(t, Options{Jobs: 1, Workers: 1})
	for _, path := range []string{"/simulate", "/tune"} {
		page := get(t, ts.client, ts.ts.URL+path, http.StatusOK)
		if want := "<option selected>" + sim.DefaultScheduler + "</option>"; strings.Count(page, "<option selected>") != 1 || !strings.Contains(page, want) {
			t.Errorf("%s: the scheduler select does not preselect %s alone", path, sim.DefaultScheduler)
		}
	}
}
