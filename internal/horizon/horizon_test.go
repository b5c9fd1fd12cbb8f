package horizon

import (
	"testing"
	"time"
)

// The constant, its text and the calendar agree.
func TestHorizon(t *testing.T) {
	want := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := Time(); !got.Equal(want) {
		t.Errorf("Time() = %s, want %s", got, want)
	}
	if got := Time().Format(time.RFC3339); got != Text {
		t.Errorf("Text = %q, the time formats as %q", Text, got)
	}
}
