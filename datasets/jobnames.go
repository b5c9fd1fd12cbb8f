package datasets

// JobNames are the names of a job: its user, group, queue and partition.
// A replay keeps each distinct tuple once and an index a job.
type JobNames struct {
	User, Group, Queue, Partition string
}
