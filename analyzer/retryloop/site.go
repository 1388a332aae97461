package retryloop

import (
	slashpath "path"
	"strings"
)

// sitePath names a file of the package being analysed the same from
// wherever a message that names it is read: by its path relative to the
// root of its module ("internal/store/store.go"), which is the package's
// path below the module's and the file's name; without a module, by the
// package's path and the file's name ("store/store.go"). An external test
// package is named by the directory it shares with its package.
func (a *checker) sitePath(filename string) string {
	base := filename[strings.LastIndexAny(filename, `/\`)+1:]
	dir := strings.TrimSuffix(a.pass.Pkg.Path(), "_test")
	if m := a.pass.Module; m != nil && m.Path != "" {
		if dir == m.Path {
			return base
		}
		if rest, ok := strings.CutPrefix(dir, m.Path+"/"); ok {
			return slashpath.Join(rest, base)
		}
	}
	return slashpath.Join(dir, base)
}
