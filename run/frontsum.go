package run

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// frontSum is the SHA-256 of front.json's bytes, as run.json records it.
func frontSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// CheckFrontSum checks the run directory dir's front.json against the
// front_sha256 its run.json records. recorded is false, and err nil, for
// a run written before run.json recorded it; a front.json that does not
// match is an error naming the file.
func CheckFrontSum(dir string) (recorded bool, err error) {
	r, err := OpenRoot(dir)
	if err != nil {
		return false, err
	}
	defer r.Close()
	m, err := r.LoadManifest()
	if err != nil {
		return false, err
	}
	if m.FrontSHA256 == "" {
		return false, nil
	}
	b, err := r.ReadFile(FrontJSON)
	if err != nil {
		return true, err
	}
	if got := frontSum(b); got != m.FrontSHA256 {
		return true, fmt.Errorf("run: %s: sha256 %.16s… differs from the front_sha256 %.16s… that %s records: edited or corrupt",
			r.Join(FrontJSON), got, m.FrontSHA256, r.Join(ManifestFile))
	}
	return true, nil
}
