package retrylib

import (
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"
)

// retriersOf type-checks src, a file of package unit, against the
// stand-ins under analyzer/all/testdata/src and returns the retriers
// found in each of its functions, by function name, in source order.
func retriersOf(t *testing.T, src string) map[string][]*Retrier {
	t.Helper()
	standins, err := filepath.Abs(filepath.Join("..", "..", "all", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	gopath := t.TempDir()
	entries, err := os.ReadDir(standins)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(gopath, "src", "unit"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(standins, e.Name()), filepath.Join(gopath, "src", e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(gopath, "src", "unit", "unit.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedName,
		Dir:  filepath.Join(gopath, "src", "unit"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "unit")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the test source does not type-check")
	}
	p := pkgs[0]
	out := map[string][]*Retrier{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var fn *ast.Ident
				switch f := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					fn = f
				case *ast.SelectorExpr:
					fn = f.Sel
				}
				if fn == nil {
					return true
				}
				callee, _ := p.TypesInfo.Uses[fn].(*types.Func)
				if r := Find(p.TypesInfo, call, callee, fd.Body); r != nil {
					out[fd.Name.Name] = append(out[fd.Name.Name], r)
				}
				return true
			})
		}
	}
	return out
}

func TestRetryablehttpDefaults(t *testing.T) {
	got := retriersOf(t, `package unit

import (
	"context"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

func defaults(ctx context.Context) {
	c := retryablehttp.NewClient()
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://x", nil)
	c.Do(req)
}

func configured() {
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.Get("http://x")
}

func literal() {
	c := &retryablehttp.Client{RetryMax: 7, Backoff: retryablehttp.DefaultBackoff, RetryWaitMin: time.Second, RetryWaitMax: time.Second}
	c.Head("http://x")
}

func escapes() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 1
	return c
}

func noRetry() {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	c.Get("http://x")
}

type svc struct{ c *retryablehttp.Client }

func (s *svc) field(req *retryablehttp.Request) { s.c.Do(req) }
`)
	cases := []struct {
		fn       string
		attempts int
		delay    Delay
		context  bool
	}{
		{"defaults", 5, Delay{Grows: true, Capped: true}, true},
		{"configured", 3, Delay{Grows: true, Random: true, Capped: true}, false},
		{"literal", 8, Delay{Value: "1s"}, false},
		{"escapes", 2, Delay{Grows: true, Capped: true}, true},
		{"field", 5, Delay{Unknown: true}, true},
	}
	for _, c := range cases {
		rs := got[c.fn]
		if len(rs) != 1 {
			t.Errorf("%s: %d retriers, want 1", c.fn, len(rs))
			continue
		}
		r := rs[0]
		if r.Attempts != c.attempts || r.Delay != c.delay || r.Context != c.context || !r.Classified || !r.Waits {
			t.Errorf("%s: attempts %d, delay %+v, context %v, classified %v; want %d, %+v, %v, classified", c.fn, r.Attempts, r.Delay, r.Context, r.Classified, c.attempts, c.delay, c.context)
		}
	}
	if rs := got["noRetry"]; len(rs) != 0 {
		t.Errorf("RetryMax 0 makes one attempt, yet %d retriers were found", len(rs))
	}
}

// expectRetriers checks the retriers found per function: none where the
// case is nil, else exactly one whose view equals the case.
func expectRetriers[W any](t *testing.T, got map[string][]*Retrier, cases map[string]*W, view func(*Retrier) W) {
	t.Helper()
	for fn, w := range cases {
		rs := got[fn]
		if w == nil {
			if len(rs) != 0 {
				t.Errorf("%s: %d retriers, want none", fn, len(rs))
			}
			continue
		}
		if len(rs) != 1 {
			t.Errorf("%s: %d retriers, want 1", fn, len(rs))
			continue
		}
		if g := view(rs[0]); !reflect.DeepEqual(g, *w) {
			t.Errorf("%s: got %+v, want %+v", fn, g, *w)
		}
	}
}
