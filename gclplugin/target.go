package gclplugin

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/unclassifiedretry"
)

// configAnalyzer is the analyzer whose flags carry the settings.
func configAnalyzer() *analysis.Analyzer { return unclassifiedretry.Analyzer }
