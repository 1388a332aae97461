package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func execute(args []string) int {
	root := &cobra.Command{Use: "retrylint", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(newTopologyCmd())
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 2
	}
	return 0
}
