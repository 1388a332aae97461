// Command retrylint finds retry designs that turn small outages into large
// ones: in Go code (retry loops) and in infrastructure (retry layers that
// multiply).
package main

import (
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/retrylint/retrylint/analyzer/all"
)

func main() {
	if vetProtocol(os.Args[1:]) {
		// go vet -vettool: hand over before cobra sees any flag. go vet
		// starts one short process per package, dependencies included,
		// each type-checking its package: a collector that runs half as
		// often costs less than the memory it keeps, as in the compiler.
		// GOGC, when set, still decides.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(vetGCPercent)
		}
		unitchecker.Main(all.WithSettings()...)
		return // unreachable: unitchecker.Main exits
	}
	os.Exit(execute(os.Args[1:]))
}

// vetGCPercent is the collector's target under go vet (GOGC=200).
const vetGCPercent = 200

// vetProtocol reports whether the arguments are go vet's tool protocol:
// -V=full, -flags, or a single *.cfg file (possibly after analyzer flags).
func vetProtocol(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if a == "-V=full" || a == "--V=full" || a == "-flags" || a == "--flags" {
			return true
		}
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}
