// Package testtrace locates the files tests share with the project in
// ../shared (beside the module root): real traces and Slurm captures. A
// missing file fails the test under CI=true, naming ../shared, and skips
// it otherwise.
package testtrace
