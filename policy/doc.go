// Package policy holds the power-management decision logic: a View of the
// cluster in, a Decision out. It has every policy from the literature, the
// hybrid genetic-fuzzy one, their tunable parameters, and rule-set files a
// daemon loads to decide exactly as the simulator scored. Features is the
// state that accumulates what policies observe over time (recent arrivals,
// the smoothed hourly load, node state times), fed by the simulator's
// events or by a daemon's polls alike.
package policy
