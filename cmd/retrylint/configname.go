package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/report"
)

// misnamedConfig is the name a configuration file is given by mistake:
// it is not read, so the run says so.
const misnamedConfig = ".retrylint.yml"

// warnMisnamedConfig says, for each .retrylint.yml where the configuration
// is looked for (wd and the directories above it, up to the one whose
// .retrylint.yaml is read), that it is not read. With --config nothing is
// looked for.
func warnMisnamedConfig(w io.Writer, g *gateFlags, wd string, cfg *config.Config) {
	if g.config != "" {
		return
	}
	dir, err := filepath.Abs(wd)
	if err != nil {
		return
	}
	for {
		p := filepath.Join(dir, misnamedConfig)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			fmt.Fprintf(w, "retrylint: warning: %s is not read: the configuration file is named %s\n", report.EscapeText(p), config.FileName)
		}
		up := filepath.Dir(dir)
		if up == dir || cfg.File != "" && dir == cfg.Dir {
			return
		}
		dir = up
	}
}
