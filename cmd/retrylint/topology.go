package main

import "github.com/spf13/cobra"

func newTopologyCmd() *cobra.Command {
	return &cobra.Command{Use: "topology PATH..."}
}
