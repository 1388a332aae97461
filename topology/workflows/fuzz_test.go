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
