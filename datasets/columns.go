package datasets

import (
	"fmt"
	"math"
)

// JobNames are the names of a job: its user, group, queue and partition.
type JobNames struct {
	User, Group, Queue, Partition string
}

// Columns is a trace's jobs in a compact form for replays: the numbers a
// replay needs, a column each, and each job's names as an index into
// Names, which holds every distinct tuple once. A job takes 40 bytes
// (a Job takes 120 and its strings), so a replay of millions of jobs fits
// in little memory. Columns leaves out the fields replays do not read
// (Wait, ReqProcs, Status); Inspect reads them from the file as it
// streams (InspectFile).
type Columns struct {
	Meta    Meta
	ID      []int64
	Submit  []int64
	Run     []int64
	ReqTime []int64
	Procs   []int32
	Name    []int32 // index into Names
	Names   []JobNames
}

// Len is the number of jobs.
func (c *Columns) Len() int { return len(c.ID) }

// NamesOf returns the names of job i.
func (c *Columns) NamesOf(i int) *JobNames { return &c.Names[c.Name[i]] }

// columnsBuilder fills Columns job by job.
type columnsBuilder struct {
	c     *Columns
	index map[JobNames]int32
}

func newColumnsBuilder(meta Meta, rows int) *columnsBuilder {
	return &columnsBuilder{
		c: &Columns{
			Meta: meta, ID: make([]int64, 0, rows), Submit: make([]int64, 0, rows),
			Run: make([]int64, 0, rows), ReqTime: make([]int64, 0, rows),
			Procs: make([]int32, 0, rows), Name: make([]int32, 0, rows),
		},
		index: map[JobNames]int32{},
	}
}

func (b *columnsBuilder) add(j *Job) error {
	c := b.c
	key := JobNames{User: j.User, Group: j.Group, Queue: j.Queue, Partition: j.Partition}
	k, ok := b.index[key]
	if !ok {
		if len(c.Names) == math.MaxInt32 {
			return fmt.Errorf("job %d (id %d): more than %d distinct user, group, queue and partition tuples", len(c.ID), j.ID, math.MaxInt32)
		}
		k = int32(len(c.Names))
		b.index[key] = k
		c.Names = append(c.Names, key)
	}
	c.ID = append(c.ID, j.ID)
	c.Submit = append(c.Submit, j.Submit)
	c.Run = append(c.Run, j.Run)
	c.ReqTime = append(c.ReqTime, j.ReqTime)
	c.Procs = append(c.Procs, j.Procs)
	c.Name = append(c.Name, k)
	return nil
}

// ColumnsOf returns the jobs of t in compact form.
func ColumnsOf(t *Trace) (*Columns, error) {
	b := newColumnsBuilder(t.Meta, len(t.Jobs))
	for i := range t.Jobs {
		if err := b.add(&t.Jobs[i]); err != nil {
			return nil, err
		}
	}
	return b.c, nil
}

// OpenColumns reads the trace at path in compact form: a canonical
// Parquet trace streams into the columns (memory about 40 bytes a job
// beyond a fixed buffer); a raw log is read as Open reads it, then
// converted.
func OpenColumns(path string, opt ReadOptions) (*Columns, error) {
	isParquet, err := isParquetFile(path)
	if err != nil {
		return nil, err
	}
	if !isParquet || opt.Format != "" {
		t, err := Open(path, opt)
		if err != nil {
			return nil, err
		}
		return ColumnsOf(t)
	}
	var b *columnsBuilder
	err = ScanParquetFile(path, func(m Meta, rows int64) error {
		b = newColumnsBuilder(m, int(min(rows, fileSize(path))))
		return nil
	}, func(batch []Job) error {
		for i := range batch {
			if err := b.add(&batch[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.c, nil
}
