package api

// The wire types of a review (docs/review.md, "The answer"). The server sends the stored
// JSON of the engine's review.Result verbatim; these types only describe it for the
// OpenAPI document and for clients, field for field (TestReviewDTOMirrorsTheEngine).

// Review is a finished match's review: per seat a summary, per decision with a choice its
// judgement.
type Review struct {
	Status string `json:"status" enums:"done"`
	// Method names the method and its budgets; it changes whenever either does, and a match
	// has one review per method.
	Method    string           `json:"method" example:"allfives-review/3 expert=9600 hindsight=20000 par=8x600 classes=0.5/2/5/12 accuracy=exp(-loss/8)"`
	Seats     []ReviewSeat     `json:"seats"`
	Decisions []ReviewDecision `json:"decisions"`
}

// ReviewRunning is the answer while the review is queued or being computed.
type ReviewRunning struct {
	Status string `json:"status" enums:"running"`
}

// ReviewSeat sums up one seat's decisions, and its side's duplicate par (docs/review.md,
// "Par, luck and skill").
type ReviewSeat struct {
	Seat int `json:"seat" minimum:"0" maximum:"3"`
	Side int `json:"side" minimum:"0" maximum:"3"`
	// Accuracy is 100 times the mean over the judged decisions of exp(-loss/8); 100 with none.
	Accuracy float64 `json:"accuracy" minimum:"0" maximum:"100" example:"99.4"`
	// MeanLoss is the mean loss in points per judged decision.
	MeanLoss float64 `json:"mean_loss" minimum:"0" example:"0.05"`
	// Judged counts the seat's decisions with more than one legal move.
	Judged  int           `json:"judged" minimum:"0"`
	Classes ReviewClasses `json:"classes"`
	// PassedOver counts the decisions where the seat played a move scoring less than the best
	// scoring play on offer; PassedOverPoints adds up the points so left.
	PassedOver       int `json:"passed_over" minimum:"0"`
	PassedOverPoints int `json:"passed_over_points" minimum:"0"`
	// Margin is the side's final score less the best opposing side's; ParMargin the mean margin
	// of the expert in every seat over the match's deals; Luck is ParMargin, Skill is Margin -
	// ParMargin.
	Margin    float64 `json:"margin" example:"65"`
	ParMargin float64 `json:"par_margin" example:"66.25"`
	Luck      float64 `json:"luck" example:"66.25"`
	Skill     float64 `json:"skill" example:"-1.25"`
}

// ReviewClasses counts a seat's judged decisions by class.
type ReviewClasses struct {
	Best       int `json:"best" minimum:"0"`
	Good       int `json:"good" minimum:"0"`
	Inaccuracy int `json:"inaccuracy" minimum:"0"`
	Mistake    int `json:"mistake" minimum:"0"`
	Blunder    int `json:"blunder" minimum:"0"`
}

// ReviewDecision is the judgement of one decision with a choice. Seq is the event the
// decision made (its tile.played, tile.drawn or turn.passed).
type ReviewDecision struct {
	Seq    int        `json:"seq" minimum:"1"`
	Seat   int        `json:"seat" minimum:"0" maximum:"3"`
	Hand   int        `json:"hand"`
	Played ReviewMove `json:"played"`
	// Best is a candidate of highest value, the played move when it ties.
	Best ReviewMove `json:"best"`
	// Loss is value(best) - value(played), in points.
	Loss  float64 `json:"loss" minimum:"0" example:"25.71"`
	Class string  `json:"class" enums:"best,good,inaccuracy,mistake,blunder"`
	// Exact says nothing was hidden (two players, the boneyard empty): the values are exact.
	Exact bool `json:"exact"`
	// Candidates are the seat's legal moves, in the order legal_moves lists them.
	Candidates []ReviewCandidate `json:"candidates"`
	Hindsight  ReviewHindsight   `json:"hindsight"`
}

// ReviewCandidate is one legal move and its value: the expected outcome for the seat's side,
// in points, from what the seat knew then.
type ReviewCandidate struct {
	Move  ReviewMove `json:"move"`
	Value float64    `json:"value" example:"7.82"`
}

// ReviewHindsight is the best move knowing every hand and the boneyard's order, and what the
// played move lost against it.
type ReviewHindsight struct {
	Best ReviewMove `json:"best"`
	Loss float64    `json:"loss" minimum:"0" example:"56"`
}

// ReviewMove is a move as legal_moves writes it: the action, and for a play the tile and
// the end.
type ReviewMove struct {
	Action string `json:"action" enums:"play,draw,pass"`
	Tile   string `json:"tile,omitempty" example:"2-5"`
	End    string `json:"end,omitempty" enums:"left,right"`
}

// Analysis is one decision's options (docs/review.md, "Explore"): every legal move the seat
// had, in the order legal_moves lists them, valued by the review's judge from what the seat
// knew then. Step is the event the decision made (the review's seq).
type Analysis struct {
	Step    int              `json:"step" minimum:"2"`
	Seat    int              `json:"seat" minimum:"0" maximum:"3"`
	Options []AnalysisOption `json:"options"`
}

// AnalysisOption is one legal move, its value for the seat's side in points (the review's
// candidate value), whether the seat played it, and whether it is the review's best (the
// played move when it ties).
type AnalysisOption struct {
	Move   ReviewMove `json:"move"`
	Value  float64    `json:"value" example:"7.82"`
	Played bool       `json:"played"`
	Best   bool       `json:"best"`
}
