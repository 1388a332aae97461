package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestWriteVersion(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/retrylint/retrylint", Version: "v1.2.3"},
		Deps: []*debug.Module{
			{Path: "golang.org/x/tools", Version: "v0.52.0"},
			{Path: "example.com/old", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/new", Version: "v1.0.1"}},
		},
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", info, `retrylint v1.2.3
go        go1.26.8
dep       golang.org/x/tools v0.52.0
dep       example.com/old v1.0.0 => example.com/new v1.0.1
`},
		{"no build info", nil, "retrylint (devel)\ngo        " + runtime.Version() + "\n"},
	} {
		var buf bytes.Buffer
		if err := writeVersion(&buf, tc.info); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, buf.String(), tc.want)
		}
	}
}
