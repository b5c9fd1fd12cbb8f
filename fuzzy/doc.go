// Package fuzzy provides linguistic variables with strong fuzzy partitions,
// rule bases, Mamdani and TSK inference without allocation, and rule text
// and JSON forms.
package fuzzy
