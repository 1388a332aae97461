// Package rules holds the topology rules and their registry.
package rules

import "github.com/retrylint/retrylint/report"

// Info describes a rule for the catalogue (`retrylint rules`).
type Info struct {
	ID       string
	Severity report.Severity
	Summary  string
}

// Catalog lists the topology rules in catalogue order.
func Catalog() []Info { return nil }
