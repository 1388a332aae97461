package topology

import (
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
)

// kustomizationNames are the file names kustomize reads in a directory.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// kustomization is what retrylint reads of a kustomization file: the
// files it applies as patches. A patch holds only the fields it changes
// (a Job's tolerations), so it is no manifest of its own.
type kustomization struct {
	Patches []struct {
		Path string `yaml:"path"`
	} `yaml:"patches"`
	PatchesStrategicMerge []string `yaml:"patchesStrategicMerge"`
	PatchesJSON6902       []struct {
		Path string `yaml:"path"`
	} `yaml:"patchesJson6902"`
}

// notePatches records the patch files the kustomization in dir, if any,
// names, so that a walk skips them. A kustomization that does not read is
// left to the walk, which skips it as no known kind.
func (ld *loader) notePatches(dir string) {
	for _, name := range kustomizationNames {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		src, err := input.Read(p, ld.opts.MaxFileSize)
		if err != nil {
			return
		}
		var k kustomization
		if yaml.Unmarshal(src, &k) != nil {
			return
		}
		paths := k.PatchesStrategicMerge
		for _, x := range k.Patches {
			paths = append(paths, x.Path)
		}
		for _, x := range k.PatchesJSON6902 {
			paths = append(paths, x.Path)
		}
		for _, rel := range paths {
			if rel == "" || strings.ContainsAny(rel, "\n:") {
				continue // an inline patch
			}
			if ld.patches == nil {
				ld.patches = map[string]bool{}
			}
			ld.patches[filepath.Join(dir, filepath.FromSlash(rel))] = true
		}
		return
	}
}
