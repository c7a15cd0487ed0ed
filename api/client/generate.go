package client

// `go generate ./...` (after ./api/ has rewritten openapi.yaml) regenerates client.gen.go from
// openapi.yaml with oapi-codegen, a tool of go.mod; TestClientIsFresh fails when it is stale.

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../openapi.yaml
