package api

// `go generate ./...` rewrites the API documents from the annotations on the handlers:
// gen_enums.go writes the enums of the wire types' tags from their lists (openapi.Lists), swag
// formats the annotations and writes the Swagger 2.0 document into docs/ (served by Swagger
// UI), then gen_openapi.go converts it into the OpenAPI 3 openapi.yaml at the repository root
// with ToOpenAPI3, and the Go client in client/ is regenerated from it (client/generate.go), so
// that `go generate ./api/` alone leaves nothing stale. TestDocsAreFresh and
// client.TestClientIsFresh fail when anything is.

//go:generate go run gen_enums.go
//go:generate go tool swag fmt --dir . --generalInfo routes.go
//go:generate go tool swag init --quiet --dir . --generalInfo routes.go --output ../docs --packageName docs --outputTypes go,json,yaml --requiredByDefault
//go:generate go run gen_openapi.go ../docs/swagger.json ../openapi.yaml
//go:generate go generate ./client
