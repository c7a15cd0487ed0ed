package repository

// RevokedToken is the token hash a seat bound to a player gets when that player rotates its
// key (players.Store.RotatePlayerKey): 32 zero bytes, which no token hashes to, so the seat's
// old token is refused from then on, while the seat stays claimed (a rematch's unclaimed seat
// has no hash at all) and its player goes on with the new key (docs/api-players.md, "Players").
func RevokedToken() []byte { return make([]byte, 32) }
