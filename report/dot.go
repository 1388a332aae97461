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
// is dashed and grey, a multiplying one bold.
func WriteDOT(w io.Writer, r *model.Result) error {
	g := layersOf(r, "")
	var b bytes.Buffer
	b.WriteString("digraph retrylint {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [shape=box, fontname=\"Helvetica\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\"];\n")
	for _, n := range g.nodes {
		attrs := []string{"label=" + dotQuote(n)}
		if g.failing[n] {
			attrs = append(attrs, `color="#d73a49"`, `fontcolor="#d73a49"`, "penwidth=2")
		}
		fmt.Fprintf(&b, "  %s [%s];\n", dotQuote(n), strings.Join(attrs, ", "))
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
		fmt.Fprintf(&b, "  %s -> %s", dotQuote(e.From), dotQuote(e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
