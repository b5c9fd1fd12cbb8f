// Package policy holds the power-management decision logic: a View of the
// cluster in, a Decision out. It has every policy from the literature, the
// hybrid genetic-fuzzy one, their tunable parameters, and rule-set files a
// daemon loads to decide exactly as the simulator scored.
package policy
