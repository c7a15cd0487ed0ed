// Package client is a typed Go client of the All Fives API, generated from openapi.yaml by
// oapi-codegen (client.gen.go; `go generate ./...` rewrites it). A seat token goes in the
// Authorization header through a request editor:
//
//	c, err := client.NewClientWithResponses("http://localhost:8080", client.WithRequestEditorFn(
//		func(_ context.Context, req *http.Request) error {
//			req.Header.Set("Authorization", "Bearer "+token)
//			return nil
//		}))
//
// Each operation's answer carries the decoded body of every documented status: JSON200,
// JSON201, ... for successes and ApplicationproblemJSON4xx for problems (docs/api.md).
package client
