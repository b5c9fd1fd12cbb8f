// Package reports turns tuning runs and policy comparisons into what people
// read and what daemons run: Pareto-front plots (every pair of objectives,
// train and test side by side, references and presets marked), timelines of
// a solution (requested vs powered slots, node states), the holdout table,
// a self-contained HTML report with Markdown and CSV beside it, a Paraver
// trace of node states, the comparison of baseline policies on one trace
// (the Grid'5000 energy-policy study's table, parameter sweeps) and the
// rule-set file of a chosen solution with its slurm.conf mapping.
//
// Figures use fixed fonts and sizes and carry no timestamp, so the same run
// gives the same SVG bytes; every file is written atomically and never over
// an existing one unless asked.
package reports
