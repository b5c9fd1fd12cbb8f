// Package layers holds the test that enforces the layer table of
// docs/architecture.md: each package of the module imports only the
// packages its layer's row allows, internal packages only other internal
// ones, and nothing imports cmd. It has no code of its own.
package layers
