package sqlite

import "github.com/allfives/allfives/repository/sqlrow"

// The rows and their conversions are the ones both SQL stores share (package sqlrow).
type (
	matchRow       = sqlrow.MatchRow
	seatRow        = sqlrow.SeatRow
	eventRow       = sqlrow.EventRow
	idempotencyRow = sqlrow.IdempotencyRow
	blob           = sqlrow.Blob
)

var (
	formatTime    = sqlrow.FormatTime
	parseTime     = sqlrow.ParseTime
	readModel     = sqlrow.ReadModel
	appendColumns = sqlrow.AppendColumns
)
