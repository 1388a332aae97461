package config

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
)

// matchByBacktracking is the definition MatchPath implements: the name or
// a directory above it matches the pattern, "**" taking any number of
// segments. Exponential, so for small inputs only.
func matchByBacktracking(pattern, name string) bool {
	pattern = strings.TrimPrefix(strings.TrimSuffix(pattern, "/"), "./")
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	var match func(ps, ns []string) bool
	match = func(ps, ns []string) bool {
		if len(ps) == 0 {
			return len(ns) == 0
		}
		if ps[0] == "**" {
			for i := 0; i <= len(ns); i++ {
				if match(ps[1:], ns[i:]) {
					return true
				}
			}
			return false
		}
		if len(ns) == 0 {
			return false
		}
		ok, err := path.Match(ps[0], ns[0])
		return err == nil && ok && match(ps[1:], ns[1:])
	}
	for n := len(ns); n >= 1; n-- {
		if match(ps, ns[:n]) {
			return true
		}
	}
	return false
}

func TestMatchPathAgreesWithItsDefinition(t *testing.T) {
	segs := []string{"a", "b", "ab", "**", "*", "a*", "?", "[ab]", ""}
	names := []string{"a", "b", "ab", "ba", "c", ""}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(list []string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = list[r.IntN(len(list))]
		}
		return strings.Join(parts, "/")
	}
	for range 20000 {
		p, n := pick(segs, 1+r.IntN(4)), pick(names, 1+r.IntN(5))
		if got, want := MatchPath(p, n), matchByBacktracking(p, n); got != want {
			t.Fatalf("MatchPath(%q, %q) = %v, want %v", p, n, got, want)
		}
	}
}

// stars is a pattern with four "**" and a last segment no name segment
// matches, against a path of n segments: O(n⁴) for a backtracking
// matcher.
type stars struct{ pattern, name string }

func manyStars(n int) stars {
	return stars{"**/a*/**/b*/**/c*/**/nomatch", strings.Repeat("a/b/c/", n/3) + "file.yaml"}
}

func TestMatchPathLinear(t *testing.T) {
	growth.LinearTime(t, 30, manyStars, func(s stars) {
		if MatchPath(s.pattern, s.name) {
			t.Fatal("matched")
		}
	})
}

func BenchmarkMatchPathSegments100(b *testing.B) { benchmarkStars(b, 100) }
func BenchmarkMatchPathSegments400(b *testing.B) { benchmarkStars(b, 400) }

func benchmarkStars(b *testing.B, n int) {
	s := manyStars(n)
	b.ReportAllocs()
	for b.Loop() {
		MatchPath(s.pattern, s.name)
	}
}

// FuzzMatchPath: any pattern and path match or not without panicking and
// without exponential work, and agree with the definition when small.
func FuzzMatchPath(f *testing.F) {
	for _, s := range [][2]string{
		{"vendor/", "vendor/x/y.yaml"}, {"**/testdata/**", "a/testdata/b.yaml"}, {"./infra/*.tf", "infra/main.tf"},
		{"**/**/**/x", "a/b/c/d"}, {"[a-", "a"}, {"a/**", "a"}, {"", ""}, {"*", "a/b"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := MatchPath(pattern, name)
		if strings.Count(pattern, "/") <= 6 && strings.Count(name, "/") <= 6 && len(pattern) < 64 && len(name) < 64 {
			if want := matchByBacktracking(pattern, name); got != want {
				t.Fatalf("MatchPath(%q, %q) = %v, want %v", pattern, name, got, want)
			}
		}
	})
}
