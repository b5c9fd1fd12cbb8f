// Package docs holds the tests that keep the documentation whole: every
// page under docs/ is linked from README.md, every relative link of the
// README and the pages leads to a file that exists, the README stays
// short enough to read first, and the code cites the project's own design
// document, docs/architecture.md. It has no code of its own.
package docs
