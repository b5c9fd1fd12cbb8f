package datasets

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
)

// Anonymization. Sites share traces with their names replaced (the
// Parallel Workloads Archive does it): an Anonymizer replaces users,
// groups, queues and partitions, and node names by stable keyed hashes,
// HMAC-SHA256 under a secret key of the kind and the name, written as a
// prefix per kind and the first 12 hex digits: "u_3fa2c19d0b7e" (users),
// "g_" (groups), "q_" (queues and partitions, one namespace), "n_"
// (nodes). The same key gives the same names in every import, so traces
// of one site stay comparable; without the key the names cannot be
// recovered or checked by guessing. Unknown (empty) names stay empty.
type Anonymizer struct {
	mac   hash.Hash
	cache map[string]string // kind byte + name → hashed name
	sum   []byte
}

// Anonymized name prefixes, one per kind of name.
const (
	AnonUser  = "u_"
	AnonGroup = "g_"
	AnonQueue = "q_"
	AnonNode  = "n_"
)

// anonHexDigits is how much of the HMAC a name keeps: 48 bits, so that
// two of a million names collide with a probability below 0.2 %.
const anonHexDigits = 12

const anonCacheMax = 1 << 16

// NewAnonymizer returns an anonymizer keyed by key, which must not be
// empty.
func NewAnonymizer(key []byte) (*Anonymizer, error) {
	if len(key) == 0 {
		return nil, errors.New("anonymize: empty key (set --anonymize-key or ECOTUNE_ANON_KEY)")
	}
	return &Anonymizer{mac: hmac.New(sha256.New, key), cache: map[string]string{}}, nil
}

// Name returns the anonymized form of name of the kind prefix (AnonUser,
// AnonGroup, AnonQueue, AnonNode); "" stays "".
func (a *Anonymizer) Name(prefix, name string) string {
	if name == "" {
		return ""
	}
	key := prefix + "\x00" + name
	if s, ok := a.cache[key]; ok {
		return s
	}
	a.mac.Reset()
	a.mac.Write([]byte(key))
	a.sum = a.mac.Sum(a.sum[:0])
	s := prefix + hex.EncodeToString(a.sum)[:anonHexDigits]
	if len(a.cache) < anonCacheMax {
		a.cache[key] = s
	}
	return s
}

// Job anonymizes j's user, group, queue and partition.
func (a *Anonymizer) Job(j *Job) {
	j.User = a.Name(AnonUser, j.User)
	j.Group = a.Name(AnonGroup, j.Group)
	j.Queue = a.Name(AnonQueue, j.Queue)
	j.Partition = a.Name(AnonQueue, j.Partition)
}

// Meta anonymizes the node names of m's layout (the groups keep their
// slots and counts).
func (a *Anonymizer) Meta(m *Meta) error {
	for i, g := range m.Layout {
		names, err := ExpandHostList(g.Hosts)
		if err != nil {
			return err
		}
		for k, n := range names {
			names[k] = a.Name(AnonNode, n)
		}
		m.Layout[i].Hosts = HostList(names)
	}
	return nil
}

// Trace anonymizes every job and the layout of t in place.
func (a *Anonymizer) Trace(t *Trace) error {
	for i := range t.Jobs {
		a.Job(&t.Jobs[i])
	}
	return a.Meta(&t.Meta)
}
