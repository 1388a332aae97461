package all_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestShapes runs every code rule over a module of the retry shapes real
// code writes beyond the textbook loop — reconnect loops, loops that start
// before the for, failures without an error value, contexts held in
// fields — next to the look-alikes that are not retries (periodic loops,
// accept loops, iteration over items, local polls). Every expected
// finding carries a want comment; every other line must stay silent.
func TestShapes(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "shapes"), every, "./...")
}
