package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzer/all"
)

// BenchmarkCheckCode times "retrylint code" without the process: loading,
// type-checking and analysing a generated package of 2,000 functions, half
// of them retry loops with a fixed sleep, half with jittered, capped backoff.
// For the comparison with go vet on a real module, see scripts/bench-vet.sh.
func BenchmarkCheckCode(b *testing.B) {
	dir := b.TempDir()
	writeBenchModule(b, dir, 20, 50)
	cfg := codeConfig{Dir: dir, Patterns: []string{"./..."}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := checkCode(cfg, all.Rules()); err != nil {
			b.Fatal(err)
		}
	}
}

// writeBenchModule writes a module of one package with files files of
// pairs pairs of retry functions each.
func writeBenchModule(b *testing.B, dir string, files, pairs int) {
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			b.Fatal(err)
		}
	}
	write("go.mod", "module example.com/bench\n\ngo 1.22\n")
	write("common.go", `package bench

import (
	"context"
	"errors"
)

var errTransient = errors.New("transient")

func call(ctx context.Context) error { return ctx.Err() }
`)
	for f := range files {
		var src strings.Builder
		src.WriteString("package bench\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"math/rand/v2\"\n\t\"time\"\n)\n")
		for i := range pairs {
			fmt.Fprintf(&src, `
func fixed%[1]d_%[2]d(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func backoff%[1]d_%[2]d(ctx context.Context) error {
	d := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := call(ctx)
		if err == nil || !errors.Is(err, errTransient) || attempt == 3 {
			return err
		}
		t := time.NewTimer(rand.N(d))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		d = min(2*d, 5*time.Second)
	}
}
`, f, i)
		}
		write(fmt.Sprintf("f%d.go", f), src.String())
	}
}
