package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of retrylint, of Go, and of the modules it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info, _ := debug.ReadBuildInfo()
			return writeVersion(cmd.OutOrStdout(), info)
		},
	}
}

// mainVersion is the version of the main module the binary was built
// from: a tag when installed with go install, "(devel)" in a checkout.
func mainVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// versionOf is the main module version of info, "(devel)" when unknown.
func versionOf(info *debug.BuildInfo) string {
	if info != nil && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// writeVersion prints the main module version, the Go version and the
// module versions of the dependencies. info may be nil (no build
// information in the binary).
func writeVersion(w io.Writer, info *debug.BuildInfo) error {
	goVersion := runtime.Version()
	var deps []*debug.Module
	if info != nil {
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		deps = info.Deps
	}
	var b strings.Builder
	fmt.Fprintf(&b, "retrylint %s\n", versionOf(info))
	fmt.Fprintf(&b, "go        %s\n", goVersion)
	for _, d := range deps {
		fmt.Fprintf(&b, "dep       %s %s", d.Path, d.Version)
		if r := d.Replace; r != nil {
			fmt.Fprintf(&b, " => %s %s", r.Path, r.Version)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
