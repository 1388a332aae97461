package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// WriteDOT writes the layer graph of every chain for Graphviz: one node per
// component (red when it has an error finding), one edge per invocation
// labelled with the factor it multiplies executions by; a dead retry layer
// is dashed and grey, a multiplying one bold. With several pipelines, each
// is a cluster of its own, labelled with its name; its nodes' IDs start
// with the cluster's number, so that two pipelines' components of one name
// stay two nodes.
func WriteDOT(w io.Writer, r *model.Result) error {
	var b bytes.Buffer
	b.WriteString("digraph retrylint {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [shape=box, fontname=\"Helvetica\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\"];\n")
	pipes := pipelinesOf(r, false)
	if pipes == nil {
		writeDOTLayers(&b, layersOf(r, ""), "  ", "")
	}
	for i, p := range pipes {
		label := p
		if p == "" {
			label = "(" + restOfPipelines + ")"
		}
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n", i)
		fmt.Fprintf(&b, "    label=%s;\n", dotQuote(label))
		writeDOTLayers(&b, layersOf(onePipeline(r, p), ""), "    ", fmt.Sprintf("%d/", i))
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return writeDefused(w, b.Bytes(), htmlEscapes)
}

// writeDOTLayers writes the nodes and edges of g, each line indented by
// indent, each node's ID its name after prefix.
func writeDOTLayers(b *bytes.Buffer, g *layerGraph, indent, prefix string) {
	for _, n := range g.nodes {
		attrs := []string{"label=" + dotQuote(n)}
		if g.failing[n] {
			attrs = append(attrs, `color="#d73a49"`, `fontcolor="#d73a49"`, "penwidth=2")
		}
		fmt.Fprintf(b, "%s%s [%s];\n", indent, dotQuote(prefix+n), strings.Join(attrs, ", "))
	}
	for _, e := range g.edges {
		var attrs []string
		if l := e.label(); l != "" {
			attrs = append(attrs, "label="+dotQuote(l))
		}
		switch {
		case e.dead():
			attrs = append(attrs, "style=dashed", `color="#6a737d"`, `fontcolor="#6a737d"`)
		case e.multiplies():
			attrs = append(attrs, "penwidth=2")
		}
		fmt.Fprintf(b, "%s%s -> %s", indent, dotQuote(prefix+e.From), dotQuote(prefix+e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
}

// dotQuote quotes s as a DOT string: a newline is a line break of the
// label, other control characters are written as escapes (EscapeText).
func dotQuote(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(EscapeText(l))
	}
	return `"` + strings.Join(lines, `\n`) + `"`
}
