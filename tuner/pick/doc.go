// Package pick chooses solutions from a front by administrator
// preference: presets (a bound on a score and an order, or the knee),
// their bounds checked on windows and thinned copies of the train split
// (Checks, ScoreWindows), and the hindsight member each preset would have
// chosen on the test split.
package pick
