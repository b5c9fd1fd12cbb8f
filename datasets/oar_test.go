package datasets

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func TestOARSamples(t *testing.T) {
	gantt, gm, err := acctReadFile(t, "oar", "samples/oar/g5k_graphene_oar_gantt.json", false)
	if err != nil {
		t.Fatal(err)
	}
	details, dm, err := acctReadFile(t, "oar", "samples/oar/g5k_graphene_oarstat_details.json", false)
	if err != nil {
		t.Fatal(err)
	}
	// 800 jobs in each (python: len(json.load(f)["jobs"])), all Terminated.
	if len(gantt) != 800 || len(details) != 800 {
		t.Fatalf("%d and %d jobs, want 800 each", len(gantt), len(details))
	}
	// The gantt dump lists 32 resources of type default on 32 hosts.
	if gm.Procs != 32 || gm.Nodes != 32 || gm.ProcsPerNode != 1 || dm.Procs != Unknown || gm.Format != "oar" {
		t.Errorf("gantt meta %+v, details meta %+v", gm, dm)
	}
	// First job of each file, read by hand: gantt job 137 submitted
	// 1463729878, started 1463729879, stopped 1463729968, walltime 149,
	// resources [12]; oarstat job 1: 1463728086, 1463728088, 1463728683,
	// walltime 891, 2 resources, message "R=2,W=0:14:51,J=B".
	want137 := Job{ID: 137, Submit: 1463729878, Wait: 1, Run: 89, Procs: 1, ReqProcs: Unknown, ReqTime: 149,
		Status: 1, User: "mmercier", Queue: "default"}
	want1 := Job{ID: 1, Submit: 1463728086, Wait: 2, Run: 595, Procs: 2, ReqProcs: 2, ReqTime: 891,
		Status: 1, User: "mmercier", Queue: "default"}
	if gantt[0] != want137 || details[0] != want1 {
		t.Errorf("first jobs:\n got %+v\n     %+v\nwant %+v\n     %+v", gantt[0], details[0], want137, want1)
	}
	// The two files describe the same jobs: every field must agree (the
	// gantt dump has no R= request).
	byID := map[int64]Job{}
	for _, j := range details {
		byID[j.ID] = j
	}
	for _, g := range gantt {
		d, ok := byID[g.ID]
		d.ReqProcs = Unknown
		if !ok || d != g {
			t.Fatalf("job %d: gantt %+v, oarstat %+v", g.ID, g, d)
		}
	}
}

func TestOARRecords(t *testing.T) {
	const text = `{
  "jobs": {
    "5": {"state": "Waiting", "submission_time": 100, "start_time": 0, "stop_time": 0},
    "6": {"state": "Error", "submission_time": 100, "start_time": 0, "stop_time": 0},
    "7": {"state": "Error", "submission_time": 100, "start_time": 110, "stop_time": 170,
          "resources": [1, 2, 3], "walltime": 600, "queue_name": "besteffort", "user": "u"},
    "8": {"state": "Terminated", "submissionTime": 100, "startTime": 101, "stopTime": 102,
          "assigned_resources": [4], "exit_code": 256, "job_user": "v", "queue": "default"}
  },
  "other": [1, {"x": null}]
}`
	jobs, meta, err := acctReadString(t, "oar", text, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{ID: 7, Submit: 100, Wait: 10, Run: 60, Procs: 3, ReqProcs: Unknown, ReqTime: 600, Status: 0, User: "u", Queue: "besteffort"},
		{ID: 8, Submit: 100, Wait: 1, Run: 1, Procs: 1, ReqProcs: Unknown, ReqTime: Unknown, Status: 0, User: "v", Queue: "default"},
	}
	if len(jobs) != 2 || jobs[0] != want[0] || jobs[1] != want[1] {
		t.Errorf("got %+v\nwant %+v", jobs, want)
	}
	if meta.Skipped["not_ended"] != 1 || meta.Skipped["never_started"] != 1 {
		t.Errorf("skipped %v, want not_ended 1, never_started 1", meta.Skipped)
	}
}

func TestOARErrors(t *testing.T) {
	const head = "{\n \"jobs\": {\n  \"1\": {\"state\": \"Terminated\", \"submission_time\": 100, \"start_time\": 101, \"stop_time\": 102},\n"
	cases := []struct {
		name, job, field string
		sentinel         error
	}{
		{"string time", `"2": {"state": "Terminated", "submission_time": 100, "start_time": "x", "stop_time": 102}`, "start_time", ErrSyntax},
		{"unknown state", `"2": {"state": "Done", "submission_time": 100, "start_time": 101, "stop_time": 102}`, "state", ErrSyntax},
		{"stop before start", `"2": {"state": "Terminated", "submission_time": 100, "start_time": 101, "stop_time": 99}`, "stop_time", ErrRange},
		{"no submission time", `"2": {"state": "Terminated", "submission_time": 0, "start_time": 101, "stop_time": 102}`, "submission_time", ErrRange},
		{"text id", `"x2": {"state": "Terminated", "submission_time": 100, "start_time": 101, "stop_time": 102}`, "Job_Id", ErrSyntax},
	}
	const tail = ",\n  \"3\": {\"state\": \"Terminated\", \"submission_time\": 100, \"start_time\": 101, \"stop_time\": 102}\n }\n}\n"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := head + "  " + c.job + tail
			_, _, err := acctReadString(t, "oar", text, false)
			acctWantError(t, err, "test.log:4", c.field, c.sentinel)
			jobs, meta, err := acctReadString(t, "oar", text, true)
			if err != nil || len(jobs) != 2 || meta.Skipped["unreadable_"+c.field] != 1 {
				t.Errorf("lenient: %d jobs, skipped %v, err %v; want 2 jobs, %s: 1", len(jobs), meta.Skipped, err, "unreadable_"+c.field)
			}
		})
	}
	// Broken JSON stops the read in both modes, at the line of the break.
	for _, lenient := range []bool{false, true} {
		_, _, err := acctReadString(t, "oar", head+"  \"2\": {\"state\": \n", lenient)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) || pe.Line < 4 {
			t.Errorf("lenient=%v: truncated JSON gave %v", lenient, err)
		}
	}
}

// TestOARReservations: a job of a Scheduled advance reservation enters
// Meta.Reservations with its window (start, start + walltime, or its stop
// without a walltime) and is submitted at its reserved start; other jobs
// keep their submission.
func TestOARReservations(t *testing.T) {
	const text = `{"jobs": {
  "1": {"state": "Terminated", "submission_time": 100, "start_time": 5000, "stop_time": 5300,
        "resources": [1, 2], "walltime": 3600, "reservation": "Scheduled"},
  "2": {"state": "Terminated", "submission_time": 200, "start_time": 210, "stop_time": 300,
        "resources": [3], "walltime": 600, "reservation": "None"},
  "3": {"state": "Terminated", "submission_time": 300, "start_time": 1000, "stop_time": 1100,
        "resources": [4], "reservation": "Scheduled"}
}}`
	jobs, meta, err := acctReadString(t, "oar", text, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Reservation{{JobID: 3, Start: 1000, End: 1100, Procs: 1}, {JobID: 1, Start: 5000, End: 8600, Procs: 2}}
	if !reflect.DeepEqual(meta.Reservations, want) || meta.Adjusted["reservation_submitted_at_start"] != 2 {
		t.Errorf("reservations %+v, adjusted %v; want %+v and 2", meta.Reservations, meta.Adjusted, want)
	}
	submits := map[int64][2]int64{}
	for _, j := range jobs {
		submits[j.ID] = [2]int64{j.Submit, j.Wait}
	}
	if w := map[int64][2]int64{1: {5000, 0}, 2: {200, 10}, 3: {1000, 0}}; !reflect.DeepEqual(submits, w) {
		t.Errorf("submit, wait by job %v, want %v", submits, w)
	}
	// The Parquet trace keeps them.
	var buf bytes.Buffer
	if err := WriteParquet(&buf, &Trace{Meta: meta, Jobs: jobs}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil || !reflect.DeepEqual(back.Meta.Reservations, want) {
		t.Errorf("Parquet round trip: %v, reservations %+v", err, back.Meta.Reservations)
	}
	// No reservation: none in the metadata (the Parquet metadata keeps its bytes).
	_, meta, err = acctReadFile(t, "oar", "samples/oar/g5k_graphene_oarstat_details.json", false)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Reservations != nil {
		t.Errorf("reservations %+v in a log of none", meta.Reservations)
	}
}
