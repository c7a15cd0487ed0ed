// Package api is the HTTP face of the referee: an Echo server exposing the referee's
// MatchService under /api/v1 (docs/api.md), with every route in routes.go, the wire types (the
// only place the API's JSON shapes are defined; ToMatchView and ToEvents convert the domain's
// values), one error mapping to application/problem+json, seat-token authentication, the live
// stream, metrics, and the Swagger and OpenAPI 3 documents.
//
// # Where things are
//
// A file is named after the resource whose routes it serves, singular, as its path names it:
// match, seat, player, ticket, rating, review, seek, tournament, puzzle, or server for the server's own
// routes and wiring. The resource alone (match.go) holds its main handlers; resource_topic.go
// (match_moves.go, player_stream.go) holds one topic of it, and resource_wire.go or
// resource_topic_wire.go holds wire types only. The only other files are doc.go, generate.go, gen_openapi.go (the generator
// go generate runs), routes.go (every route) and server.go (New and its Config).
// TestFilesFollowTheNamingRule checks every non-test file against this rule.
//
// What is not a handler nor a wire type has a package of its own under api/: middleware (what
// every request passes before its handler), ratelimit (token buckets), metrics (Prometheus),
// sse (the live streams' writer and caps), jsonbody (strict reading of request bodies),
// problem (the error table and the mapping of an error to its answer; the problem+json wire
// type stays here), openapi (the OpenAPI 3 document built from swag's Swagger 2.0), and
// apitest (the server as tests build it).
package api
