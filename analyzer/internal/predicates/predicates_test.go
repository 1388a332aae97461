package predicates

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// The predicates below are run for one status at a time: the parameter
// code holds it, and anything else (ctx, flag, the helpers) is unknown.
const src = `package p

import "net/http"

var codes = []int{429, 503}

func refresh() int { return 0 }
func other() bool  { return false }

func plain(code int) bool { return code == 429 || code >= 500 }

func local(code int) bool {
	class := code / 100
	retry := false
	if class == 5 {
		retry = true
	}
	return retry
}

func sw(code int) bool {
	switch code {
	case 400, 401, 403:
		return false
	case http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

func listed(code int) bool {
	for _, c := range codes {
		if c == code {
			return true
		}
	}
	return false
}

func withFlag(code int, flag bool) bool {
	if flag {
		return false
	}
	return code == 503
}

func both(code int, flag bool) bool { return flag && code == 503 }

func repaired(code int) bool {
	if code == 401 {
		refresh()
		return true
	}
	return false
}

func onlyIf(code int, flag bool) bool {
	if flag {
		return code == 503
	}
	return false
}

func logged(code int) bool {
	println(code)
	return code == 503
}
`

type fixture struct {
	info  *types.Info
	funcs map[string]*ast.FuncDecl
}

func load(t *testing.T) fixture {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	fx := fixture{info: info, funcs: map[string]*ast.FuncDecl{}}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fx.funcs[fd.Name.Name] = fd
		}
	}
	return fx
}

// run answers the predicate name for the status code.
func (fx fixture) run(name string, code int64, undecided Undecided) (Truth, bool) {
	return fx.runWith(name, code, undecided, func(*Run) {})
}

func (fx fixture) runWith(name string, code int64, undecided Undecided, with func(*Run)) (Truth, bool) {
	fd := fx.funcs[name]
	param := fx.info.Defs[fd.Type.Params.List[0].Names[0]]
	r := &Run{
		Info:      fx.info,
		Undecided: undecided,
		Value: func(e ast.Expr) constant.Value {
			if id, ok := e.(*ast.Ident); ok && fx.info.Uses[id] == param {
				return constant.MakeInt64(code)
			}
			return nil
		},
		List: func(e ast.Expr) ([]constant.Value, bool) {
			if id, ok := e.(*ast.Ident); ok && id.Name == "codes" {
				return []constant.Value{constant.MakeInt64(429), constant.MakeInt64(503)}, true
			}
			return nil, false
		},
		Repairs: func(s ast.Stmt) bool {
			es, ok := s.(*ast.ExprStmt)
			if !ok {
				return false
			}
			call, ok := es.X.(*ast.CallExpr)
			id, isIdent := call.Fun.(*ast.Ident)
			return ok && isIdent && id.Name == "refresh"
		},
	}
	with(r)
	return r.Body(fd.Body.List)
}

func TestAnswersForEachStatus(t *testing.T) {
	fx := load(t)
	for _, tc := range []struct {
		name      string
		undecided Undecided
		retried   []int64
		refused   []int64
	}{
		{"plain", Stop, []int64{429, 500, 503}, []int64{400, 401, 200}},
		{"local", Stop, []int64{500, 503, 599}, []int64{429, 400, 200}},
		{"sw", Stop, []int64{429, 500, 503}, []int64{400, 401, 403, 404}},
		{"listed", Stop, []int64{429, 503}, []int64{500, 400}},
		{"withFlag", Skip, []int64{503}, []int64{500, 401}},
		{"both", Skip, []int64{503}, []int64{500, 401}},
		{"logged", Skip, []int64{503}, []int64{500}},
	} {
		for _, c := range tc.retried {
			if v, ok := fx.run(tc.name, c, tc.undecided); !ok || v != True {
				t.Errorf("%s(%d) = %v, %v; want retried", tc.name, c, v, ok)
			}
		}
		for _, c := range tc.refused {
			if v, ok := fx.run(tc.name, c, tc.undecided); !ok || v != False {
				t.Errorf("%s(%d) = %v, %v; want not retried", tc.name, c, v, ok)
			}
		}
	}
}

func TestStopEndsAtWhatItCannotDecide(t *testing.T) {
	fx := load(t)
	for _, name := range []string{"withFlag", "both", "logged"} {
		if v, ok := fx.run(name, 503, Stop); ok {
			t.Errorf("%s(503) in a Stop run = %v, answered; want no answer", name, v)
		}
	}
}

func TestForkAgreesOrIsUnknown(t *testing.T) {
	fx := load(t)
	// flag decides 503: the branches differ.
	if v, _ := fx.run("withFlag", 503, Fork); v != Unknown {
		t.Errorf("withFlag(503) forked = %v; want unknown", v)
	}
	// 500 is refused whatever flag is.
	if v, _ := fx.run("withFlag", 500, Fork); v != False {
		t.Errorf("withFlag(500) forked = %v; want false", v)
	}
	if v, _ := fx.run("both", 401, Fork); v != False {
		t.Errorf("both(401) forked = %v; want false", v)
	}
}

func TestFreeConditionTakesEitherBranch(t *testing.T) {
	fx := load(t)
	free := func(r *Run) {
		r.Free = func(c ast.Expr) bool { id, ok := c.(*ast.Ident); return ok && id.Name == "flag" }
	}
	if v, _ := fx.runWith("onlyIf", 503, Fork, free); v != True {
		t.Errorf("onlyIf(503) with flag free = %v; want true, some run retries it", v)
	}
	if v, _ := fx.runWith("onlyIf", 500, Fork, free); v != False {
		t.Errorf("onlyIf(500) with flag free = %v; want false", v)
	}
	if v, _ := fx.run("onlyIf", 503, Fork); v != Unknown {
		t.Errorf("onlyIf(503) forked = %v; want unknown when flag is not free", v)
	}
}

func TestRetryAfterARepairIsUnknown(t *testing.T) {
	fx := load(t)
	if v, ok := fx.run("repaired", 401, Skip); v != Unknown || !ok {
		t.Errorf("repaired(401) = %v, %v; want unknown after a refresh", v, ok)
	}
	if v, ok := fx.run("repaired", 500, Skip); v != False || !ok {
		t.Errorf("repaired(500) = %v, %v; want false", v, ok)
	}
}

func TestTruthTable(t *testing.T) {
	for _, tc := range []struct {
		a, b     Truth
		and, or_ Truth
	}{
		{True, True, True, True},
		{True, False, False, True},
		{False, Unknown, False, Unknown},
		{True, Unknown, Unknown, True},
		{Unknown, Unknown, Unknown, Unknown},
	} {
		if got := tc.a.And(tc.b); got != tc.and {
			t.Errorf("%v and %v = %v; want %v", tc.a, tc.b, got, tc.and)
		}
		if got := tc.a.Or(tc.b); got != tc.or_ {
			t.Errorf("%v or %v = %v; want %v", tc.a, tc.b, got, tc.or_)
		}
	}
}
