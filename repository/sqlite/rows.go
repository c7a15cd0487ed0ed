package sqlite

import "github.com/allfives/allfives/repository/sqlrow"

// The rows and their conversions are the ones both SQL stores share (package sqlrow).
type (
	matchRow       = sqlrow.MatchRow
	seatRow        = sqlrow.SeatRow
	eventRow       = sqlrow.EventRow
	idempotencyRow = sqlrow.IdempotencyRow
	head           = sqlrow.Head
)

var (
	readModel     = sqlrow.ReadModel
	appendColumns = sqlrow.AppendColumns
	// The pieces of an append both stores build alike.
	encodeEvents     = sqlrow.EncodeEvents
	link             = sqlrow.Link
	headOf           = sqlrow.HeadOf
	idempotencyRowOf = sqlrow.IdempotencyRowOf
	seatRowOf        = sqlrow.SeatRowOf
)
