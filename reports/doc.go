// Package reports turns tuning runs and policy comparisons into plots,
// holdout tables, HTML/Markdown/CSV reports, Paraver traces and exported
// rule sets.
package reports
