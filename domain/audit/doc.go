// Package audit re-checks a recorded match: the hash chain (ChainHash is its one formula),
// every event against the rules, the read model against the log and, once the seed is revealed,
// the seed against its commitment and every deal against the seed (docs/api-records.md, "Replay, audit
// and export"). A damaged record is a failed check, never an error.
package audit
