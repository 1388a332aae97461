package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/report"
)

// exitCode ends a command with the given exit status and no further message:
// 1 for findings at or above the fail level, 2 for a failed run whose errors
// the command has already printed. Any other error returned by a command is
// printed by execute and ends the run with exit 2.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func execute(args []string) int {
	exitOnSignal(pending)
	return run(args, os.Stdout, os.Stderr)
}

// run executes the command line args, writing to stdout and stderr, and
// returns the process exit status. What goes to stderr quotes the input
// (file names, names, values): no line of it reads as a CI command.
func run(args []string, stdout, stderr io.Writer) int {
	ctx := withTerminal(context.Background(), stderr)
	guard := report.NewLineGuard(stderr)
	defer guard.Flush()
	stderr = guard
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	var ec exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ec):
		return int(ec)
	default:
		fmt.Fprintln(stderr, "retrylint:", report.EscapeText(err.Error()))
		return 2
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "retrylint",
		Short: "Find retry designs that turn small outages into large ones",
		Long: `retrylint finds retry designs that turn a small outage into a large one.

"retrylint code" checks Go packages for retry loops that storm a struggling
dependency: fixed intervals, backoff without jitter or cap, unbounded or
unclassified retries, retried permanent failures, sleeps that ignore the
context. "retrylint topology" checks infrastructure manifests for retry layers
that multiply. "retrylint report" runs both and writes one pre-merge report
(Markdown, SARIF or JSON), optionally against a base.

Exit status: 0 no finding at or above --fail-on, 1 findings at or above it,
2 the run itself failed (bad flag, invalid input, type errors).`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if version, _ := cmd.Flags().GetBool("version"); version {
				info, _ := debug.ReadBuildInfo()
				return writeVersion(cmd.OutOrStdout(), info)
			}
			return cmd.Help()
		},
	}
	root.Flags().Bool("version", false, `print the version of retrylint, of Go and of the modules it was built with, as "retrylint version" does`)
	// Flag errors are usage errors: exit 2 like any failed run. execute
	// says "retrylint: " before the message; the subcommand is named
	// after it.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		help := fmt.Sprintf("(see %q)", cmd.CommandPath()+" --help")
		if cmd == root {
			return fmt.Errorf("%w %s", err, help)
		}
		return fmt.Errorf("%s: %w %s", strings.TrimPrefix(cmd.CommandPath(), root.Name()+" "), err, help)
	})
	root.AddCommand(
		newCodeCmd(),
		newTopologyCmd(),
		newReportCmd(),
		newRulesCmd(),
		newExplainCmd(),
		newVersionCmd(),
	)
	return root
}
