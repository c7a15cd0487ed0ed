// Package api is the HTTP face of the referee: an Echo server exposing the referee's
// MatchService under /api/v1 (docs/api.md), with every route in routes.go, the wire types (the
// only place the API's JSON shapes are defined; ToMatchView and ToEvents convert the domain's
// values), one error mapping to application/problem+json, seat-token authentication, the live
// stream, metrics, and the Swagger and OpenAPI 3 documents.
package api
