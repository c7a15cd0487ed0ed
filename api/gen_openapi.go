//go:build ignore

// gen_openapi converts the Swagger 2.0 document swag wrote into the OpenAPI 3 document:
//
//	go run gen_openapi.go ../docs/swagger.json ../openapi.yaml
//
// It is run by go generate (see generate.go), with the same conversion the server uses to
// serve /openapi.yaml.
package main

import (
	"fmt"
	"os"

	"github.com/allfives/allfives/api"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run gen_openapi.go <swagger.json> <openapi.yaml>")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		if out, err = api.ToOpenAPI3(in); err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen_openapi:", err)
		os.Exit(1)
	}
}
