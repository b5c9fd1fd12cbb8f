package datasets

import "io"

// A Reader streams the jobs of one log in file order (not necessarily
// sorted by submit time).
type Reader interface {
	// Next returns the next job, or io.EOF after the last one. In lenient
	// mode unreadable records are skipped and counted in Meta().Skipped;
	// otherwise the first one is returned as a *ParseError.
	Next() (Job, error)
	// Meta returns what the log said about itself; complete after io.EOF.
	Meta() Meta
}

// Format is one supported log format.
type Format struct {
	Name string // swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne
	Doc  string
	// Detect reports whether the start of a file (up to 64 KiB, already
	// decompressed) looks like this format.
	Detect func(head []byte) bool
	// NewReader reads a log of this format; file names it in errors.
	NewReader func(r io.Reader, file string, opt ReadOptions) (Reader, error)
}

// Formats returns the supported formats in detection order (most specific
// first).
func Formats() []Format {
	return []Format{
		{Name: "argonne", Doc: "Argonne Theta/Mira SWF-like dialect (tab separated, epoch submit times)", Detect: detectArgonne, NewReader: newArgonneReader},
		{Name: "gwf", Doc: "Grid Workloads Archive, 29 fields", Detect: detectGWF, NewReader: newGWFReader},
		{Name: "swf", Doc: "Parallel Workloads Archive Standard Workload Format, 18 fields", Detect: detectSWF, NewReader: newSWFReader},
		{Name: "slurm", Doc: "Slurm sacct --parsable2, with or without header", Detect: detectSlurm, NewReader: newSlurmReader},
		{Name: "pbs", Doc: "PBS/TORQUE and PBS Pro accounting E records", Detect: detectPBS, NewReader: newPBSReader},
		{Name: "uge", Doc: "Univa Grid Engine accounting (epoch milliseconds)", Detect: detectUGE, NewReader: newUGEReader},
		{Name: "sge", Doc: "Sun/Son of/Open Grid Engine accounting (epoch seconds)", Detect: detectSGE, NewReader: newSGEReader},
		{Name: "lsf", Doc: "IBM Spectrum LSF lsb.acct JOB_FINISH records", Detect: detectLSF, NewReader: newLSFReader},
		{Name: "oar", Doc: "OAR job table JSON", Detect: detectOAR, NewReader: newOARReader},
	}
}

// Detect returns the first format, in the order of Formats, that
// recognises head (the start of a decompressed log), or ErrUnknownFmt.
func Detect(head []byte) (Format, error) {
	for _, f := range Formats() {
		if f.Detect(head) {
			return f, nil
		}
	}
	return Format{}, ErrUnknownFmt
}
