package progress

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/schollz/progressbar/v3"
)

// A Bar is a search recorder (tuner.Options.Monitor) that shows a search's progress: on a
// terminal a bar with the generation, evaluations per second, the
// hypervolume of the current front (the train split's, as Tune gives it)
// and the time left; otherwise one plain line at most every few seconds
// and at the end.
type Bar struct {
	w        io.Writer
	bar      *progressbar.ProgressBar
	terminal bool
	start    time.Time
	first    search.Status // the first status seen (a resumed run starts late)
	seen     bool
	lastLine time.Time
}

// plainEvery is the least time between two plain progress lines.
const plainEvery = 5 * time.Second

// New writes progress to w, as a bar if terminal.
func New(w io.Writer, terminal bool) *Bar {
	return &Bar{w: w, terminal: terminal}
}

// Record implements Recorder.
func (p *Bar) Record(s *search.Status) error {
	now := time.Now()
	if !p.seen {
		p.seen, p.first, p.start = true, *s, now
		if p.terminal {
			p.bar = progressbar.NewOptions(s.Generations,
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetWidth(30),
				progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(false),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish())
		}
	}
	line := p.line(s, now)
	if p.bar != nil {
		p.bar.Describe(line)
		return p.bar.Set(s.Generation)
	}
	if now.Sub(p.lastLine) >= plainEvery || s.Generation >= s.Generations {
		p.lastLine = now
		_, err := fmt.Fprintln(p.w, line)
		return err
	}
	return nil
}

// line is the description: generation, rate, hypervolume, time left.
func (p *Bar) line(s *search.Status, now time.Time) string {
	el := now.Sub(p.start).Seconds()
	evals := s.Evaluations - p.first.Evaluations
	gens := s.Generation - p.first.Generation
	out := fmt.Sprintf("generation %d/%d, %d evaluations", s.Generation, s.Generations, s.Evaluations)
	if el > 0 && evals > 0 {
		out += fmt.Sprintf(", %.0f/s", float64(evals)/el)
	}
	if !math.IsNaN(s.Hypervolume) && len(s.Front) > 0 {
		out += fmt.Sprintf(", HV %.4f", s.Hypervolume)
	}
	if gens > 0 {
		left := time.Duration(el / float64(gens) * float64(s.Generations-s.Generation) * float64(time.Second))
		if s.Budget > 0 && evals > 0 {
			byBudget := time.Duration(el / float64(evals) * float64(max(0, s.Budget-s.Evaluations)) * float64(time.Second))
			left = min(left, byBudget)
		}
		out += fmt.Sprintf(", %s left", left.Round(time.Second))
	}
	return out
}

// Done implements tuner.Monitor: it clears the bar; the next Record
// starts a new one.
func (p *Bar) Done() {
	if p.bar != nil {
		p.bar.Finish()
	}
	p.bar, p.seen, p.lastLine = nil, false, time.Time{}
}

// Note implements tuner.Monitor: a line between searches.
func (p *Bar) Note(line string) {
	fmt.Fprint(p.w, line)
}
