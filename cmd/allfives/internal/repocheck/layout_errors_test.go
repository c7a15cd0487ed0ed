package repocheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The error codes' rooms (docs/design.md, "Errors"): domain declares the game's codes and no
// other; each service, the stores' leaf and the limits' leaf declare their own; api/problem
// maps them all. A code has one declaration, a string literal, in one package.

// gameCodes are the codes domain may declare, each with why it is the game's: the rules, the
// moves, the seats, the match's lifecycle, a request the game cannot read. A code joins the
// list only if it is the match's own: one a service raises about its own things (players,
// seeks, tournaments, reviews, ratings, the stores, the server's limits) lives with it.
var gameCodes = map[string]string{
	"INVALID_REQUEST":        "a request the game cannot read (domain.Invalidf, in every layer)",
	"UNAUTHORIZED":           "a credential refused: a seat's token, or a player's key alike",
	"INTERNAL":               "what an error without a code answers (domain.CodeOf)",
	"MATCH_NOT_FOUND":        "the match itself",
	"VERSION_CONFLICT":       "the match's version (domain.VersionConflictError)",
	"IDEMPOTENCY_KEY_REUSED": "a seat's move sent again with another body",
	"NOT_YOUR_TURN":          "the rules: the turn",
	"TILE_NOT_IN_HAND":       "the rules: the hand",
	"TILE_DOES_NOT_FIT":      "the rules: the line's ends",
	"END_REQUIRED":           "the rules: the line's ends",
	"MUST_LEAD_DOUBLE":       "the rules: the lead",
	"MUST_PLAY":              "the rules: play, draw or pass",
	"MUST_DRAW":              "the rules: play, draw or pass",
	"MUST_PASS":              "the rules: play, draw or pass",
	"MATCH_FINISHED":         "the match's lifecycle",
	"MATCH_NOT_STARTED":      "the match's lifecycle",
	"MATCH_STARTED":          "the match's lifecycle",
	"MATCH_NOT_FINISHED":     "the match's lifecycle",
	"REMATCH_CANCELLED":      "the match's lifecycle: its one rematch offer (domain/consent.go)",
	"SEAT_TAKEN":             "the seats",
	"INVALID_INVITE":         "the seats: an open seat's invite",
	"ALREADY_SEATED":         "the seats: one player, one seat of a match (domain/seats.go)",
	"SEAT_NOT_RESERVED":      "the seats: consent (domain/consent.go)",
	"SEAT_RESIGNED":          "the seats: resignation (domain/consent.go)",
	"SEED_WITH_OPEN_SEATS":   "the deal's secrecy: whoever chooses the seed knows every hand",
	"NOT_A_DECISION": "the moves: a seat's choice among its legal moves (domain/decision.go); the reviews " +
		"(Explore) and the referee (Play on) both raise it, and the referee cannot import the reviews",
	"MATCH_SEALED": "the match's seal, read by domain.Viewer; the referee and the reviews raise it " +
		"for any route and caller, and cannot import the tournament service (it imports the referee)",
}

// codeHomes say where a code that is not the game's belongs, by a word of it.
var codeHomes = []struct{ word, home string }{
	{"STORE", "domain/app/storeerr"}, {"RECORD", "domain/app/storeerr"},
	{"RATE_LIMITED", "domain/app/quota"},
	{"TOURNAMENT", "domain/app/tournaments"}, {"ENTER", "domain/app/tournaments"},
	{"ENTRIES", "domain/app/tournaments"}, {"ORGANISER", "domain/app/tournaments"},
	{"SEEK", "domain/app/seeks"},
	{"PLAYER", "domain/app/players"}, {"NAME", "domain/app/players"},
	{"RATING", "domain/app/ratings"}, {"REVIEW", "domain/app/reviews"},
}

// homeOf names where code should be declared instead of domain.
func homeOf(code string) string {
	for _, h := range codeHomes {
		if strings.Contains(code, h.word) {
			return h.home
		}
	}
	return "the package under domain/app of the service whose concept it is " +
		"(a store's in domain/app/storeerr, a limit's in domain/app/quota)"
}

// codeDecl is one error code declared in a package: a constant of type domain.Code (name) or
// a literal code handed to domain.NewError (name empty).
type codeDecl struct {
	pkg, name, code, at string
	// alias: the constant's value is not a string literal but another constant, which gives
	// one code two names.
	alias bool
}

// isCodeType reports whether e names domain.Code, as package pkg spells it.
func isCodeType(e ast.Expr, pkg string) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return pkg == "domain" && e.Name == "Code"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "domain" && e.Sel.Name == "Code"
	}
	return false
}

// isNewError reports whether e is domain.NewError, as package pkg spells it.
func isNewError(e ast.Expr, pkg string) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return pkg == "domain" && e.Name == "NewError"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "domain" && e.Sel.Name == "NewError"
	}
	return false
}

// stringLit is the value of a string literal, or ok false.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// codeDecls lists the codes the files of package pkg (its path inside the module) declare.
func codeDecls(fset *token.FileSet, pkg string, files []*ast.File) []codeDecl {
	var out []codeDecl
	at := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			var typ ast.Expr
			var values []ast.Expr
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type != nil || len(vs.Values) > 0 { // else the group's implicit repetition
					typ, values = vs.Type, vs.Values
				}
				for i, name := range vs.Names {
					if i >= len(values) {
						continue
					}
					v, code := values[i], typ != nil && isCodeType(typ, pkg)
					if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 && isCodeType(call.Fun, pkg) {
						v, code = call.Args[0], true
					}
					if !code {
						continue
					}
					s, lit := stringLit(v)
					if !lit {
						s = exprText(v)
					}
					out = append(out, codeDecl{pkg: pkg, name: name.Name, code: s, at: at(name), alias: !lit})
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if ok && len(call.Args) > 0 && isNewError(call.Fun, pkg) {
				if s, lit := stringLit(call.Args[0]); lit {
					out = append(out, codeDecl{pkg: pkg, code: s, at: at(call)})
				}
			}
			return true
		})
	}
	return out
}

// exprText is an expression as written, for the message about an alias.
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// describe names a declaration in a message.
func (d codeDecl) describe() string {
	if d.name == "" {
		return fmt.Sprintf("a literal %s handed to NewError (%s/%s)", d.code, d.pkg, d.at)
	}
	return fmt.Sprintf("%s (%s/%s)", d.name, d.pkg, d.at)
}

// serviceCodesInDomain: domain declares no code outside gameCodes; each finding names where
// the code belongs.
func serviceCodesInDomain(decls []codeDecl) []string {
	var bad []string
	for _, d := range decls {
		if d.pkg != "domain" || d.alias {
			continue
		}
		if d.name == "" {
			bad = append(bad, fmt.Sprintf("domain hands NewError a literal %s (%s): declare the code as a constant", d.code, d.at))
		}
		if _, game := gameCodes[d.code]; !game {
			bad = append(bad, fmt.Sprintf("domain declares %s, not one of the game's codes: declare it in %s", d.describe(), homeOf(d.code)))
		}
	}
	return bad
}

// codesWithTwoHomes: each code is declared once in the module, as a string literal.
func codesWithTwoHomes(decls []codeDecl) []string {
	var bad []string
	first := map[string]codeDecl{}
	for _, d := range decls {
		if d.alias {
			bad = append(bad, fmt.Sprintf("%s is %s: a code has one name, in its owner's package", d.describe(), d.code))
			continue
		}
		if d.name == "" {
			continue // a literal handed to NewError is found by serviceCodesInDomain in domain
		}
		if f, ok := first[d.code]; ok {
			bad = append(bad, fmt.Sprintf("%s is declared by %s and by %s: a code has one owner", d.code, f.describe(), d.describe()))
			continue
		}
		first[d.code] = d
	}
	return bad
}

// moduleCodeDecls parses every package of the module (its non-test Go files) and lists the
// codes each declares.
func moduleCodeDecls(t *testing.T) []codeDecl {
	t.Helper()
	fset := token.NewFileSet()
	var out []codeDecl
	for _, line := range goList(t, "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \"|\"}}", module+"/...") {
		fields := strings.Split(line, "|")
		pkg, dir := inModule(fields[0]), fields[1]
		var files []*ast.File
		for _, name := range fields[2:] {
			if name == "" {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		out = append(out, codeDecls(fset, pkg, files)...)
	}
	return out
}

// TestErrorCodesLiveWithTheirOwners: domain declares the game's codes only, every code has one
// home, and the list of the game's codes names only codes domain declares.
func TestErrorCodesLiveWithTheirOwners(t *testing.T) {
	decls := moduleCodeDecls(t)
	if len(decls) < len(gameCodes) {
		t.Fatalf("%d codes found in the module, fewer than the game's %d alone", len(decls), len(gameCodes))
	}
	for _, b := range append(serviceCodesInDomain(decls), codesWithTwoHomes(decls)...) {
		t.Error(b)
	}
	for code := range gameCodes {
		if !slices.ContainsFunc(decls, func(d codeDecl) bool { return d.pkg == "domain" && d.code == code }) {
			t.Errorf("gameCodes lists %s, which domain does not declare", code)
		}
	}
}

// errorLeaves are the packages that hold codes shared by the stores, the services and the HTTP
// layer: each imports domain and the standard library only, so that all of them may import it.
var errorLeaves = []string{"domain/app/storeerr", "domain/app/quota"}

// TestErrorLeavesImportOnlyDomain: the leaves of shared codes stay leaves.
func TestErrorLeavesImportOnlyDomain(t *testing.T) {
	g := moduleGraph(t)
	for _, leaf := range errorLeaves {
		imports, ok := g[leaf]
		if !ok {
			t.Errorf("%s is not a package of the module", leaf)
		}
		for _, imp := range imports {
			if imp != "domain" && !standard(g, imp) {
				t.Errorf("%s imports %s", leaf, imp)
			}
		}
	}
}

// misplacedSource is domain as it would be with the codes of services in it: the seek codes,
// a store's, a player's, a rating's handed to NewError as a literal, and RATE_LIMITED, which
// api/problem also names by an alias.
const misplacedSource = `package domain

type Code string

const (
	CodeMustPass       Code = "MUST_PASS"
	CodeAlreadySeeking Code = "ALREADY_SEEKING"
	CodeSeekNotFound        = Code("SEEK_NOT_FOUND")
	CodeStoreBusy      Code = "STORE_BUSY"
	CodeNameTaken      Code = "NAME_TAKEN"
	CodeRateLimited    Code = "RATE_LIMITED"
)

var ErrRatingGone = NewError("RATING_GONE", "gone")
`

const aliasSource = `package problem

import "example/domain"

const (
	CodeNotFound    domain.Code = "NOT_FOUND"
	CodeRateLimited domain.Code = domain.CodeRateLimited
	CodeMustPass    domain.Code = "MUST_PASS"
)
`

// TestErrorCodeRulesCatchMisplacedCodes: the rules are not vacuous. A domain with the services'
// codes in it is refused, each code sent where it belongs, and a code named twice is found.
func TestErrorCodeRulesCatchMisplacedCodes(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) []*ast.File {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		return []*ast.File{f}
	}
	decls := append(codeDecls(fset, "domain", parse("errors.go", misplacedSource)),
		codeDecls(fset, "api/problem", parse("problem.go", aliasSource))...)
	misplaced := serviceCodesInDomain(decls)
	for _, want := range []string{
		"domain declares CodeAlreadySeeking (domain/errors.go:7), not one of the game's codes: declare it in domain/app/seeks",
		"domain declares CodeSeekNotFound (domain/errors.go:8), not one of the game's codes: declare it in domain/app/seeks",
		"domain declares CodeStoreBusy (domain/errors.go:9), not one of the game's codes: declare it in domain/app/storeerr",
		"domain declares CodeNameTaken (domain/errors.go:10), not one of the game's codes: declare it in domain/app/players",
		"domain declares CodeRateLimited (domain/errors.go:11), not one of the game's codes: declare it in domain/app/quota",
		"domain hands NewError a literal RATING_GONE (errors.go:14): declare the code as a constant",
		"domain declares a literal RATING_GONE handed to NewError (domain/errors.go:14), not one of the game's codes: declare it in domain/app/ratings",
	} {
		if !slices.Contains(misplaced, want) {
			t.Errorf("the rule on domain's codes misses %q; it found:\n%s", want, strings.Join(misplaced, "\n"))
		}
	}
	if len(misplaced) != 7 {
		t.Errorf("the rule on domain's codes found %d, want 7 (MUST_PASS is the game's):\n%s", len(misplaced), strings.Join(misplaced, "\n"))
	}
	twice := codesWithTwoHomes(decls)
	want := []string{
		"CodeRateLimited (api/problem/problem.go:7) is domain.CodeRateLimited: a code has one name, in its owner's package",
		"MUST_PASS is declared by CodeMustPass (domain/errors.go:6) and by CodeMustPass (api/problem/problem.go:8): a code has one owner",
	}
	if !slices.Equal(twice, want) {
		t.Errorf("the rule on codes with two homes found:\n%s\nwant:\n%s", strings.Join(twice, "\n"), strings.Join(want, "\n"))
	}
}
