// Package repocheck holds the checks of the repository as a whole, none of them about one
// command or package: the layout of docs/design.md, "Layers" (who may import whom, and a row of
// its table for every package), every cross-reference and path to docs/ in comments and pages,
// no commit hash in comments and docs, docs that state the present, and the shell examples of
// the README and the API's guide run as written against a server.
//
// The package has no code outside its tests: this file is what `go list` sees of it. Its
// tests read the repository from root (repo_test.go); the module's import graph is
// moduleGraph's (graph_test.go), with goList, inModule, under and standard for new rules.
package repocheck
