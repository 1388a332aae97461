package topology

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/input"
)

// pipelines remembers which pipeline each loaded file belongs to.
type pipelines struct {
	hasTopo map[string]bool   // directory → holds a topology file
	ofFile  map[string]string // display name → pipeline
	budgets map[string]budget
	comps   map[string][]*Component // absolute path → the components read from it
}

type budget struct {
	n   int
	pos Pos
}

// topologyFileName reports whether name is how a topology file is named.
func topologyFileName(name string) bool {
	n := strings.ToLower(name)
	return n == "retrylint.yaml" || n == "retrylint.yml" ||
		strings.HasSuffix(n, ".topology.yaml") || strings.HasSuffix(n, ".topology.yml")
}

// holdsTopologyFile reports whether dir holds a topology file.
func (ld *loader) holdsTopologyFile(dir string) bool {
	if ld.pipes.hasTopo == nil {
		ld.pipes.hasTopo = map[string]bool{}
	}
	if v, ok := ld.pipes.hasTopo[dir]; ok {
		return v
	}
	found := false
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() && topologyFileName(e.Name()) {
				found = true
				break
			}
		}
	}
	ld.pipes.hasTopo[dir] = found
	return found
}

// pipelineOf is the pipeline the file abs belongs to: what a topology file
// includes is that file's; otherwise the nearest directory at or above it,
// within the paths named, that holds a topology file; otherwise "", the
// pipeline of everything else named.
func (ld *loader) pipelineOf(abs string) string {
	if ld.includer != "" {
		return ld.includer
	}
	for dir := filepath.Dir(abs); input.Within(ld.roots, dir); dir = filepath.Dir(dir) {
		if ld.holdsTopologyFile(dir) {
			return ld.display(dir)
		}
		if up := filepath.Dir(dir); up == dir {
			break
		}
	}
	return ""
}

// tag puts the components cs into pipeline p.
func (ld *loader) tag(cs []*Component, p string) {
	for _, c := range cs {
		c.pipeline = p
	}
}

// fileIn records that the file named display belongs to pipeline p.
func (ld *loader) fileIn(display, p string) {
	if ld.pipes.ofFile == nil {
		ld.pipes.ofFile = map[string]string{}
	}
	ld.pipes.ofFile[display] = p
}

func (ld *loader) setBudget(p string, n int, pos Pos) {
	if ld.pipes.budgets == nil {
		ld.pipes.budgets = map[string]budget{}
	}
	ld.pipes.budgets[p] = budget{n, pos}
}

// tfPipeline is the pipeline of a Terraform root module in dir: the
// topology file's above it, or the module itself.
func (ld *loader) tfPipeline(dir string) string {
	if p := ld.pipelineOf(filepath.Join(dir, "main.tf")); p != "" {
		return p
	}
	return ld.display(dir)
}

// linkPipelines links each pipeline on its own, "" first, then by name.
func (ld *loader) linkPipelines() ([]*Graph, error) {
	seen := map[string]bool{}
	var keys []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, c := range ld.manifests {
		add(c.pipeline)
	}
	for _, d := range ld.decls {
		add(d.pipeline)
	}
	// Findings of loading belong to the pipeline of their file.
	fileOf := map[string]string{}
	for f, p := range ld.pipes.ofFile {
		fileOf[f] = p
	}
	for _, c := range ld.manifests {
		fileOf[c.Pos.File] = c.pipeline
		for _, f := range c.Files {
			fileOf[f] = c.pipeline
		}
	}
	// A pipeline may hold findings and no component: a root module that
	// only calls registry modules it cannot follow.
	for _, f := range ld.findings {
		add(fileOf[f.Pos.File])
	}
	sort.Strings(keys)
	if len(keys) <= 1 {
		g, err := ld.link()
		if err != nil {
			return nil, err
		}
		if len(keys) == 1 {
			g.Pipeline = keys[0]
		}
		return []*Graph{g}, nil
	}
	var out []*Graph
	for i, k := range keys {
		sub := *ld
		sub.manifests, sub.decls, sub.findings = nil, nil, nil
		for _, c := range ld.manifests {
			if c.pipeline == k {
				sub.manifests = append(sub.manifests, c)
			}
		}
		for _, d := range ld.decls {
			if d.pipeline == k {
				sub.decls = append(sub.decls, d)
			}
		}
		for _, f := range ld.findings {
			if fileOf[f.Pos.File] == k {
				sub.findings = append(sub.findings, f)
			}
		}
		b := ld.pipes.budgets[k]
		sub.budget, sub.budgetPos = b.n, b.pos
		if i > 0 {
			sub.skipped, sub.unfollowed = nil, nil
		}
		g, err := sub.link()
		if err != nil {
			return nil, err
		}
		g.Pipeline = k
		out = append(out, g)
	}
	return out, nil
}
