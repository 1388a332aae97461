package topology

import (
	"slices"
	"strings"

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
	kindValue     = lazyre.New(`(?m)^kind:[ \t]*['"]?([A-Za-z]+)`)
	apiGroup      = lazyre.New(`(?m)^apiVersion:[ \t]*['"]?([A-Za-z0-9.-]+)`)
)

// ofReadKind reports whether src, which has apiVersion and kind at the top
// level, names a kind a manifest loader reads: some top-level kind is one of the
// kinds of some top-level apiVersion's group (documents are not told
// apart, so a file of several is judged by all its kinds).
func ofReadKind(src []byte) bool {
	var kinds []string
	for _, m := range kindValue.Regexp().FindAllSubmatch(src, -1) {
		kinds = append(kinds, string(m[1]))
	}
	for _, m := range apiGroup.Regexp().FindAllSubmatch(src, -1) {
		group, _, _ := strings.Cut(string(m[1]), "/")
		for _, ml := range manifestLoaders {
			if ml.kind != "" && ml.group == group && slices.Contains(kinds, ml.kind) {
				return true
			}
		}
	}
	return false
}

// isTemplate reports whether src holds template actions: it is rendered
// into a manifest, not one itself.
func isTemplate(src []byte) bool { return templateRE.Regexp().Match(src) }

// manifestShaped reports whether src, which does not decode, is
// recognisably a manifest by its text: apiVersion and kind at the top
// level, of a kind retrylint reads, an API resource name, a topology file, or a Workflows shape (a
// main: block, or a top-level list of steps with call: or steps:).
func manifestShaped(src []byte) bool {
	switch {
	case topAPIVersion.Regexp().Match(src) && topKind.Regexp().Match(src):
		// A Gateway or a Deployment that does not parse is no retry
		// layer's manifest: only the kinds retrylint reads count.
		return ofReadKind(src)
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
