package codelayer

import (
	"errors"
	"path/filepath"
	"testing"
)

// analyse indexes the packages of patterns under dir.
func analyse(t *testing.T, dir string, patterns ...string) *Index {
	t.Helper()
	ix, err := Analyse(dir, patterns, dir)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

var appDir = filepath.Join("..", "testdata", "topology", "code", "app")

// TestSharedAnalysisIsReused: packages the --code analysis holds are read
// from it; the source is not analysed a second time.
func TestSharedAnalysisIsReused(t *testing.T) {
	shared := analyse(t, appDir, "./...")
	ld := &Loader{Shared: shared, Analyse: func(string, []string) (*Index, error) {
		return nil, errors.New("analysed again")
	}}
	layers, err := ld.Layers(filepath.Dir(appDir), "./app/...", "example.com/app/client.(*Client).Generate")
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 2 || layers[0].Retries != 3 || layers[1].Retries != 2 {
		t.Fatalf("layers %+v, want the wrapper's 3 retries around the client's 2", layers)
	}
	if layers[0].Func != "retry.Do" || layers[1].Func != "client.(*Client).Generate" {
		t.Errorf("functions %q, %q", layers[0].Func, layers[1].Func)
	}
	// A source the shared analysis does not hold is analysed, once.
	calls := 0
	ld = &Loader{Shared: analyse(t, appDir, "./billing"), Analyse: func(dir string, patterns []string) (*Index, error) {
		calls++
		return analyse(t, dir, patterns...), nil
	}}
	for range 2 {
		if _, err := ld.Layers(filepath.Dir(appDir), "./app/...", "example.com/app/report.Send"); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("analysed %d times, want once", calls)
	}
}

// TestLayersPredicate: the client retries a 503 only; the wrapper retries
// every failure.
func TestLayersPredicate(t *testing.T) {
	ix := analyse(t, appDir, "./...")
	layers, err := ix.Layers([]string{"example.com/app"}, "./...", "client.(*Client).Generate")
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 2 {
		t.Fatalf("layers %+v", layers)
	}
	if p := layers[0].Predicate; !p.Any {
		t.Errorf("wrapper predicate %v, want any failure", p)
	}
	if p := layers[1].Predicate; p.Any || p.String() != "[http-503]" {
		t.Errorf("client predicate %v, want [http-503]", p)
	}
	if b := layers[1].Backoff; b == nil || b.Multiplier <= 1 || b.Jitter != "none" {
		t.Errorf("client backoff %+v, want growing without jitter", b)
	}
	if b := layers[0].Backoff; b == nil || b.Multiplier != 1 || b.Initial != 1 {
		t.Errorf("wrapper backoff %+v, want a constant 1s", b)
	}
	// Nothing retries the biller: no layer, one attempt.
	if layers, err := ix.Layers([]string{"example.com/app"}, "./...", "example.com/app/billing.(*Biller).Charge"); err != nil || len(layers) != 0 {
		t.Errorf("Charge: %+v, %v; want no layer", layers, err)
	}
	if _, err := ix.Layers([]string{"example.com/app"}, "./...", "example.com/app/billing.Nothing"); err == nil {
		t.Error("a pattern that names no function is not an error")
	}
}
