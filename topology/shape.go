package topology

import (
	"github.com/retrylint/retrylint/internal/lazyre"
)

var (
	// templateRE finds a Go template action (Helm, gomplate): {{ .Values.x }},
	// {{- include "x" . }}, {{ if … }}, {{/* … */}}. A Workflows string such
	// as "{{name}}" is not one.
	templateRE = lazyre.New(`\{\{-?\s*(?:\.|\$|/\*|(?:if|else|end|range|with|include|template|define|block|toYaml|tpl|default|quote|printf|required|lookup|fail)\b)`)

	topAPIVersion = lazyre.New(`(?m)^apiVersion:[ \t]*\S`)
	topKind       = lazyre.New(`(?m)^kind:[ \t]*\S`)
	topMain       = lazyre.New(`(?m)^main:[ \t]*(?:#.*)?\r?$`)
	topList       = lazyre.New(`(?m)\A(?:[ \t]*(?:#.*)?\r?\n)*- `)
	stepKey       = lazyre.New(`(?m)^[ \t]+(?:- )?(?:call|steps):`)
	topVersion    = lazyre.New(`(?m)^version:[ \t]*1\b`)
	topComponents = lazyre.New(`(?m)^components:`)
	topAPIName    = lazyre.New(`(?m)^name:[ \t]*['"]?projects/`)
)

// isTemplate reports whether src holds template actions: it is rendered
// into a manifest, not one itself.
func isTemplate(src []byte) bool { return templateRE.Regexp().Match(src) }

// manifestShaped reports whether src, which does not decode, is
// recognisably a manifest by its text: apiVersion and kind at the top
// level, an API resource name, a topology file, or a Workflows shape (a
// main: block, or a top-level list of steps with call: or steps:).
func manifestShaped(src []byte) bool {
	switch {
	case topAPIVersion.Regexp().Match(src) && topKind.Regexp().Match(src):
		return true
	case topMain.Regexp().Match(src):
		return true
	case topList.Regexp().Match(src) && stepKey.Regexp().Match(src):
		return true
	case topVersion.Regexp().Match(src) && topComponents.Regexp().Match(src):
		return true
	case topAPIName.Regexp().Match(src):
		return true
	}
	return false
}
