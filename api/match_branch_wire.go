package api

// The wire types of Play on (docs/review.md, "Play on").

// CreateBranchRequest asks for a branch of a finished match before one of its decisions.
type CreateBranchRequest struct {
	// Step is the decision's seq (a review decision's): the branch starts from the state
	// before event step; at most domain.MaxStep.
	Step int `json:"step" validate:"required" minimum:"1" maximum:"1000000" example:"12"`
	// Bot is the strategy of every seat but the caller's (docs/bots.md).
	Bot string `json:"bot" validate:"required" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots" example:"level-5"`
	// Name is the caller's seat's name without a player key ("Guest" when left out); with a
	// key the seat is the key's player's and shows its name.
	Name string `json:"name,omitempty" minLength:"1" maxLength:"64" example:"Ada"`
}

// BranchResponse is a new branch as the caller's seat sees it, and that seat's token, shown
// once.
type BranchResponse struct {
	Match MatchView `json:"match"`
	Token string    `json:"token" example:"Jc3mZ1s6m0kq0yC2Zb6i0Q8m4o2H1XQpY9cJwF2nq5E"`
}

// MatchBranch is, on a branch's view, the match and the step it was played on from.
type MatchBranch struct {
	Match string `json:"match" example:"0f3c9a1e5b7d4c2a8e6f1b3d5a7c9e0f"`
	Step  int    `json:"step" minimum:"2" example:"12"`
}

// EventBranch is match.created's branch_of: the match and step a branch was played on from,
// the hash (hex) of that match's event step-1, and the revealed seeds that dealt the hands
// the branch shares with the matches it came from (each later hand is dealt from the
// branch's own seed).
type EventBranch struct {
	Match string       `json:"match" example:"0f3c9a1e5b7d4c2a8e6f1b3d5a7c9e0f"`
	Step  int          `json:"step" minimum:"2" example:"12"`
	Hash  string       `json:"hash" example:"79176d86d8da3ef67cceda97d3248b57ec0d17a9b702032268c88ab1037e54d7"`
	Dealt []EventDealt `json:"dealt"`
}

// EventDealt says that the hands numbered up to hands (after those of the entries before it)
// were dealt from seed, a finished match's revealed seed.
type EventDealt struct {
	Hands int    `json:"hands" minimum:"1" example:"2"`
	Seed  string `json:"seed" example:"1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"`
}
