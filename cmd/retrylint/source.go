package main

import "github.com/retrylint/retrylint/internal/input"

// maxSourceSize caps what is read of a finding's file to fingerprint its
// line for SARIF: far above any source file or manifest.
const maxSourceSize = 16 << 20

// readSource reads the file of a finding, a path relative to the working
// directory as findings name them, for the SARIF writer.
func readSource(file string) ([]byte, error) {
	return input.Read(file, maxSourceSize)
}
