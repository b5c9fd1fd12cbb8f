package tuner

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is a Recorder that shows a search's progress: on a terminal a
// bar with the generation, evaluations per second, the hypervolume of the
// current front and the time left; otherwise one plain line at most every
// few seconds and at the end.
type Progress struct {
	// Hypervolume scores the current first front (objective vectors in
	// their own sense); nil leaves it out. Tune sets it to the train
	// split's normalised hypervolume.
	Hypervolume func(points [][]float64) float64

	w        io.Writer
	bar      *progressbar.ProgressBar
	terminal bool
	start    time.Time
	first    Status // the first status seen (a resumed run starts late)
	seen     bool
	lastLine time.Time
}

// plainEvery is the least time between two plain progress lines.
const plainEvery = 5 * time.Second

// NewProgress writes progress to w, as a bar if terminal.
func NewProgress(w io.Writer, terminal bool) *Progress {
	return &Progress{w: w, terminal: terminal}
}

// Record implements Recorder.
func (p *Progress) Record(s *Status) error {
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
func (p *Progress) line(s *Status, now time.Time) string {
	el := now.Sub(p.start).Seconds()
	evals := s.Evaluations - p.first.Evaluations
	gens := s.Generation - p.first.Generation
	out := fmt.Sprintf("generation %d/%d, %d evaluations", s.Generation, s.Generations, s.Evaluations)
	if el > 0 && evals > 0 {
		out += fmt.Sprintf(", %.0f/s", float64(evals)/el)
	}
	if p.Hypervolume != nil && len(s.Front) > 0 {
		pts := make([][]float64, len(s.Front))
		for i, m := range s.Front {
			pts[i] = m.F
		}
		out += fmt.Sprintf(", HV %.4f", p.Hypervolume(pts))
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

// Finish clears the bar.
func (p *Progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
