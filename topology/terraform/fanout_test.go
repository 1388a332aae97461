package terraform

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
)

// fanOut writes modules m0 … m<depth>, each calling the next width times and declaring one
// subscription: width^depth instances of the last. It loads the root module, m0.
func fanOut(t *testing.T, width, depth int) func() (*Module, error) {
	return paddedFanOut(t, width, depth, 0)
}

// paddedFanOut is fanOut with pad bytes of comment in each module.
func paddedFanOut(t *testing.T, width, depth, pad int) func() (*Module, error) {
	load := padded(t, width, depth, pad)
	return func() (*Module, error) { return load(nil) }
}

// sharedFanOut is fanOut read with a budget.
func sharedFanOut(t *testing.T, width, depth int) func(*Budget) (*Module, error) {
	return padded(t, width, depth, 0)
}

func padded(t *testing.T, width, depth, pad int) func(*Budget) (*Module, error) {
	files := map[string]string{}
	for i := 0; i <= depth; i++ {
		var b strings.Builder
		b.WriteString("# " + strings.Repeat("-", pad) + "\n")
		fmt.Fprintf(&b, "resource \"google_pubsub_subscription\" \"s\" {\n  name = \"s%d\"\n}\n", i)
		for c := 0; c < width && i < depth; c++ {
			fmt.Fprintf(&b, "module \"c%d\" {\n  source = \"../m%d\"\n}\n", c, i+1)
		}
		files[fmt.Sprintf("m%d/main.tf", i)] = b.String()
	}
	dir := writeModule(t, files)
	return func(b *Budget) (*Module, error) {
		return LoadDir(filepath.Join(dir, "m0"), Options{Roots: []string{dir}, Budget: b})
	}
}

// TestModuleFanOutCapped: modules that each call the next three times multiply into 3^8
// instances within the depth bound; past maxModuleInstances the read stops with an error at
// the call that passes it, not with gigabytes later.
func TestModuleFanOutCapped(t *testing.T) {
	_, err := fanOut(t, 3, 8)()
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 1000 module instances") ||
		!strings.HasSuffix(e.Pos.File, "/main.tf") || e.Pos.Line < 5 {
		t.Fatalf("err = %v, want an error at a module call naming the cap", err)
	}
	// 511 instances of 100 KB: the configuration they make together is capped too.
	_, err = paddedFanOut(t, 2, 8, 100<<10)()
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 32 MiB of configuration") || e.Pos.Line < 5 {
		t.Fatalf("err = %v, want an error at a module call naming the size cap", err)
	}
	if m, err := fanOut(t, 3, 5)(); err != nil || len(m.Resources) != 364 {
		t.Errorf("3^5 instances: %v, %d resources, want 364", err, len(m.Resources))
	}
}

// TestModuleFanOutLinear: a fan-out past the cap costs the same at 4n instances as at n.
func TestModuleFanOutLinear(t *testing.T) {
	growth.Linear(t, 1, func(n int) func() (*Module, error) { return fanOut(t, 4, 4+map[int]int{1: 1, 4: 2}[n]) }, func(load func() (*Module, error)) {
		if _, err := load(); err == nil {
			t.Fatal("accepted")
		}
	})
}

// TestBudgetShared: reads that share a budget are bounded together: forty reads of a fan-out
// of 511 module instances pass the cap on the instances of a run.
func TestBudgetShared(t *testing.T) {
	load := sharedFanOut(t, 2, 8)
	budget := &Budget{}
	for i := 0; i < 39; i++ {
		if _, err := load(budget); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if _, err := load(budget); err == nil || !strings.Contains(err.Error(), "more than 20000 module instances together") {
		t.Errorf("last read: %v, want the cap on the instances of a run", err)
	}
	if _, err := load(nil); err != nil {
		t.Errorf("a read of its own: %v", err)
	}
}
