package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// exitCode ends a command with a code other than 0 or 2 (1: findings at or
// above the fail level). Any other error returned by a command is exit 2.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func execute(args []string) int {
	root := &cobra.Command{
		Use:           "retrylint",
		Short:         "Find retry designs that turn small outages into large ones",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newTopologyCmd())
	root.SetArgs(args)
	err := root.Execute()
	var ec exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ec):
		return int(ec)
	default:
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 2
	}
}
