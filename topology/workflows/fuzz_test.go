package workflows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
)

func FuzzParse(f *testing.F) {
	corpus, _ := shareddata.Find("corpus/gcp/workflows")
	for _, dir := range []string{corpus, "testdata"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	for _, s := range []string{
		"- a:\n    next: a\n",
		"- a:\n    return: ${x\n",
		"main:\n  steps:\n    - s:\n        call: sub\nsub:\n  steps:\n    - t:\n        call: main\n",
		"a: &a [*a]\n",
		"- s:\n    try:\n      try:\n        call: http.get\n    retry: ${p}\np:\n",
		"- s:\n    for:\n      value: v\n      in: ${[1,2]}\n      steps:\n        - b:\n            next: break\n",
		"- s:\n    call: sys.log\n    args:\n      text: ${\"failed: \" + e.message}\n",
		"- t:\n    return: ${json.encode({\n        \"a\": 1\n    })}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		w, err := Parse("fuzz.yaml", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("panic during analysis: %v", err)
			}
			return
		}
		for _, c := range w.Calls {
			if c.Function == "" || c.Target.Kind == "" {
				t.Fatalf("incomplete call %+v", c)
			}
		}
		for _, p := range w.FailPaths {
			if p.Reason == "" || p.Pos.Line < 1 {
				t.Fatalf("incomplete fail path %+v", p)
			}
		}
	})
}

// FuzzExpr feeds the expression parser alone: any text inside "${...}"
// parses or gives an error with an offset inside it, never a panic; what
// parses can be walked for the names it reads.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{
		`x + 1`, `"a" + b.c.d`, `map.get(m, "k")`, `not (a == 1 or b != "x")`, `a[0].b["c"]`,
		`[1, 2, {"k": v}]`, `(x`, `"abc`, ``, `x +`, `http.default_retry_predicate`, `-1.5e3 // 2 % 3`,
		`"{\\"a\\": 1}" + e.message`, `sys.get_env("GOOGLE_CLOUD_PROJECT_ID")`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		x, err := parseExpr(src)
		if err != nil {
			if off, _ := errOffset(err); off < 0 || off > len(src) {
				t.Fatalf("error offset %d outside the %d bytes: %v", off, len(src), err)
			}
			return
		}
		dottedName(x)
		rootIdent(x)
		varRefs(x, func(name, path string) {
			if name == "" || !strings.HasPrefix(path, name) {
				t.Fatalf("read %q with path %q", name, path)
			}
		})
		exprSpan("${" + src + "}")
	})
}
