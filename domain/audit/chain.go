package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// ChainHash links an event to its predecessor: sha256(prev || seq as 8 bytes big-endian ||
// type || data). prev is the previous event's hash, or nil for seq 1.
func ChainHash(prev []byte, seq int, t domain.EventType, data []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(seq))
	h.Write(n[:])
	h.Write([]byte(t))
	h.Write(data)
	return h.Sum(nil)
}

// ChainLink is one stored event as the hash chain sees it: the bytes that were hashed and the
// hashes stored beside them.
type ChainLink struct {
	Seq            int
	Type           domain.EventType
	Data           []byte
	PrevHash, Hash []byte
}

// VerifyLinks re-hashes a match's stored log, in seq order, and reports the first link that
// breaks: a seq out of place (a gap or a deleted event), a prev_hash that is not the previous
// event's hash, or a hash that does not match the stored type and data. Both stores verify
// through it, so they judge a log alike. HeadHash is the head recomputed from what is stored.
func VerifyLinks(links []ChainLink) ChainReport {
	rep := ChainReport{OK: true, Events: len(links)}
	var prev []byte
	for i, l := range links {
		want := ChainHash(prev, l.Seq, l.Type, l.Data)
		switch {
		case l.Seq != i+1:
			return rep.Broken(i+1, fmt.Sprintf("seq %d is missing: the next stored event is seq %d", i+1, l.Seq))
		case !bytes.Equal(l.PrevHash, prev):
			return rep.Broken(l.Seq, "prev_hash is not the previous event's hash")
		case !bytes.Equal(l.Hash, want):
			return rep.Broken(l.Seq, "hash does not match the stored type and data")
		}
		prev = want
	}
	rep.HeadHash = hex.EncodeToString(prev)
	return rep
}

// Broken returns the report marked failed at seq with detail; a store also uses it for a fault
// VerifyLinks cannot see, such as a log shorter than the version the store recorded.
func (r ChainReport) Broken(seq int, detail string) ChainReport {
	r.OK, r.FirstBadSeq, r.Detail = false, seq, detail
	return r
}

// ChainReport is the result of re-hashing a match's log.
type ChainReport struct {
	OK          bool
	Events      int
	HeadHash    string
	FirstBadSeq int // 0 when the chain holds
	Detail      string
}
