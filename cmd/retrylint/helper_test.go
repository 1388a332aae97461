package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// helperEnv, set to "JOB:ARG", makes the test binary a helper process
// that does JOB, says "ready ..." on stdout and waits for a signal.
const helperEnv = "RETRYLINT_TEST_HELPER"

// runHelper is the helper process: it installs the signal handling of
// retrylint, starts a piece of work that leaves something to clean up and
// waits inside it.
func runHelper(job string) int {
	exitOnSignal(pending)
	kind, arg, _ := strings.Cut(job, ":")
	switch kind {
	case "write":
		// A report half written to its temporary file.
		err := writeOutput(arg, func(w io.Writer) error {
			fmt.Fprint(w, "partial")
			fmt.Println("ready")
			select {}
		})
		fmt.Fprintln(os.Stderr, err)
		return 3
	case "fixes":
		// Fixes of two files under way: the first complete in its
		// temporary file, the second half written.
		a, b, _ := strings.Cut(arg, ",")
		s, err := stageFile(a, 0o644, nil, func(w io.Writer) error {
			_, err := io.WriteString(w, "fixed")
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		defer s.discard()
		_, err = stageFile(b, 0o644, nil, func(w io.Writer) error {
			fmt.Fprint(w, "half")
			fmt.Println("ready")
			select {}
		})
		fmt.Fprintln(os.Stderr, err)
		return 3
	case "put":
		// Write a report to arg at once, as a user might ask with -o.
		if err := writeFileAtomic([]byte("report\n"), arg, nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "base":
		// A git base checked out, its analysis under way.
		root, _, err := checkoutBase(arg, "HEAD~1")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		fmt.Println("ready", root)
		select {}
	}
	return 3
}
