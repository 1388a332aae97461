package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retrylint/retrylint/model"
)

// MarkdownOptions control the Markdown report.
type MarkdownOptions struct {
	// FailOn is the lowest severity that fails the gate: "error",
	// "warning", "note" or "never" ("" is "error"). The verdict line
	// follows it, as the exit status does.
	FailOn string
	// Rules links each rule to its page.
	Rules Rules
	// LinkBase, when set, turns every file:line into a link to
	// LinkBase/file#Lline, e.g.
	// "https://github.com/OWNER/REPO/blob/COMMIT".
	LinkBase string
	// MaxBytes caps the report's size, so that it fits in a pull-request
	// comment (GitHub takes 65,536 characters): the whole report, diagrams,
	// tables and lists included. What does not fit is counted, not listed;
	// a diagram or a table row is left out whole, never cut. 0 is
	// DefaultMaxBytes; negative, no cap.
	MaxBytes int
}

// DefaultMaxBytes leaves room under GitHub's 65,536-character limit of a
// comment.
const DefaultMaxBytes = 60000

// maxDiagramEdges is the most edges a Mermaid diagram draws; GitHub
// refuses larger diagrams, and nobody reads them.
const maxDiagramEdges = 150

// maxChangesListed is the most components and findings each list of the
// comparison with the base shows, so that the events and the findings
// keep their room in the report.
const maxChangesListed = 50

// foldOver is how many items a list or table shows before the rest is
// folded into <details>.
const foldOver = 5

// WriteMarkdown writes the pre-merge review report: a verdict line; with
// r.Changes, what the change did; per triggering event, a Mermaid diagram of
// the retry layers and a table of worst-case executions; the findings
// grouped by rule. It renders on GitHub as it is, e.g. as a pull-request
// comment.
//
// With several pipelines (findings and chains that name theirs), each has
// a heading with its events and its findings under it; the room of the
// report is shared between them, what one leaves unused going to the next.
func WriteMarkdown(w io.Writer, r *model.Result, opts MarkdownOptions) error {
	m := &mdWriter{opts: opts}
	m.verdict(r)
	pipes := pipelinesOf(r, true)
	if r.Changes != nil {
		several := pipes != nil
		for _, a := range r.Changes.Attempts {
			several = several || a.Pipeline != ""
		}
		m.changes(r.Changes, several)
	}
	if pipes == nil {
		m.pipeline(r, 0)
	}
	for i, p := range pipes {
		one := onePipeline(r, p)
		head := fmt.Sprintf("### %s\n\n", pipelineHeading(p))
		if !m.fits(len(head) + sectionRoom) {
			m.omittedEvents += len(roots(one.Chains))
			m.omitted += len(one.Findings)
			continue
		}
		m.b.WriteString(head)
		m.depth = 1
		// This pipeline's share of the room left; its events take at
		// most half of that share when it has findings.
		var end int
		if max := m.max(); max >= 0 && i < len(pipes)-1 {
			end = m.b.Len() + (max-closingRoom-m.b.Len())/(len(pipes)-i)
		}
		m.pipeline(one, end)
		m.depth = 0
	}
	if m.omittedEvents > 0 {
		m.printf("_%s not shown to keep the report within the size of a pull-request comment; the JSON report lists every chain._\n\n",
			plural(m.omittedEvents, "more event is", "more events are"))
	}
	if m.omitted > 0 {
		m.printf("_%s not listed to keep the report within the size of a pull-request comment; the JSON and SARIF reports list them all._\n",
			plural(m.omitted, "finding is", "findings are"))
	}
	return writeDefused(w, m.b.Bytes(), htmlEscapes)
}

// pipeline writes the events and the findings of r, within end (0: the
// report's cap).
func (m *mdWriter) pipeline(r *model.Result, end int) {
	if len(r.Findings) > 0 {
		// The events take at most half of the room left: the findings
		// keep theirs.
		top := m.max() - closingRoom
		if end > 0 {
			top = end
		}
		m.soft = m.b.Len() + (top-m.b.Len())/2
	}
	for _, root := range roots(r.Chains) {
		m.event(r, root)
	}
	m.soft = end
	m.findings(r.Findings)
	m.soft = 0
}

// mdWriter accumulates the report.
type mdWriter struct {
	b             bytes.Buffer
	opts          MarkdownOptions
	omitted       int // findings not listed because the report is full
	omittedEvents int // events not shown because the report is full
	soft          int // when > 0, a lower cap for the section being written
	depth         int // how many levels the headings are below a pipeline's
}

// heading is the Markdown heading mark of level (3: an event, 4: a rule),
// under a pipeline's heading when there are several.
func (m *mdWriter) heading(level int) string {
	return strings.Repeat("#", level+m.depth)
}

// max is the report's size cap; negative for none.
func (m *mdWriter) max() int {
	if m.opts.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return m.opts.MaxBytes
}

// closingRoom is the room kept under the cap for what closes the report:
// a </details>, the notes of what was left out.
const closingRoom = 1500

// add writes s whole if it fits under the size cap, with room kept to
// close the report; it reports whether it did.
func (m *mdWriter) add(s string) bool {
	if !m.fits(len(s)) {
		return false
	}
	m.b.WriteString(s)
	return true
}

// fits reports whether n more bytes fit under the size cap, with room kept
// to close the report.
func (m *mdWriter) fits(n int) bool {
	max := m.max()
	if max < 0 {
		return true
	}
	if m.soft > 0 && m.b.Len()+n > m.soft {
		return false
	}
	return m.b.Len()+n <= max-closingRoom
}

// sectionRoom is what a section needs free to start: its heading, the
// head of its table and the notes of what it leaves out.
const sectionRoom = 800

// finding writes one line of a finding list, or counts it as omitted when
// the report is full.
func (m *mdWriter) finding(line string) {
	if !m.add(line) {
		m.omitted++
	}
}

func (m *mdWriter) printf(format string, args ...any) { fmt.Fprintf(&m.b, format, args...) }

// failLevel is the rank of the lowest severity that fails the gate.
func (m *mdWriter) failLevel() int {
	switch m.opts.FailOn {
	case "warning":
		return model.Warning.Rank()
	case "note":
		return model.Note.Rank()
	case "never":
		return 1 << 30
	}
	return model.Error.Rank()
}

// verdict writes the title and the one line that says whether the gate
// passes, with the count of findings by severity.
func (m *mdWriter) verdict(r *model.Result) {
	m.printf("## retrylint\n\n")
	counts := countSeverities(r.Findings)
	failing := 0
	for _, f := range r.Findings {
		if f.Severity.Rank() >= m.failLevel() {
			failing++
		}
	}
	gate := map[string]string{
		"warning": "fails on warnings and errors",
		"note":    "fails on any finding",
		"never":   "never fails",
	}[m.opts.FailOn]
	if gate == "" {
		gate = "fails on errors"
	}
	if failing > 0 {
		m.printf("**❌ Fails:** %s (the gate %s).\n\n", counts, gate)
	} else {
		m.printf("**✅ Passes:** %s (the gate %s).\n\n", counts, gate)
	}
}

// countSeverities is "2 errors, 1 warning", or "no findings".
func countSeverities(findings []model.Finding) string {
	var n [4]int
	for _, f := range findings {
		n[f.Severity.Rank()]++
	}
	var parts []string
	for _, s := range []struct {
		sev       model.Severity
		one, many string
	}{{model.Error, "error", "errors"}, {model.Warning, "warning", "warnings"}, {model.Note, "note", "notes"}} {
		if c := n[s.sev.Rank()]; c > 0 {
			parts = append(parts, plural(c, s.one, s.many))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// changes writes the before/after section; with several pipelines, each
// component's line names its pipeline.
func (m *mdWriter) changes(ch *model.Changes, several bool) {
	m.printf("### What changed against `%s`\n\n", mdCode(ch.Base))
	if len(ch.Attempts) == 0 && len(ch.New) == 0 && len(ch.Fixed) == 0 {
		m.printf("Nothing: the same findings and the same worst cases as the base.\n\n")
		return
	}
	if len(ch.Attempts) > 0 {
		m.printf("Worst-case executions per event:\n\n")
		left := 0
		for i, a := range ch.Attempts {
			if i >= maxChangesListed {
				left++
			} else if !m.add(fmt.Sprintf("- **%s: %s → %s**%s%s\n", mdText(a.Component), a.Before, a.After, pipelineNote(a.Pipeline, several), worstDetail(a.After))) {
				left++
			}
		}
		if left > 0 {
			m.printf("- _and %s, not listed here for size_\n", plural(left, "more component", "more components"))
		}
		m.printf("\n")
	}
	m.findingList(fmt.Sprintf("New findings (%d)", len(ch.New)), ch.New)
	m.findingList(fmt.Sprintf("Fixed findings (%d)", len(ch.Fixed)), ch.Fixed)
}

// restOfPipelines names the pipeline of what no topology file or
// Terraform root module holds, as the text output does.
const restOfPipelines = "the rest of what was named"

// pipelineHeading is the heading of a pipeline's section.
func pipelineHeading(p string) string {
	if p == "" {
		return "The rest of what was named"
	}
	return "Pipeline `" + mdCode(p) + "`"
}

// pipelineNote names a component's pipeline in a line of the changes, when
// there are several.
func pipelineNote(p string, several bool) string {
	switch {
	case !several:
		return ""
	case p == "":
		return " in " + restOfPipelines
	}
	return " in `" + mdCode(p) + "`"
}

// worstDetail is the formula and root of a worst case, after the numbers.
func worstDetail(w *model.Worst) string {
	if w == nil || w.Formula == "" {
		return ""
	}
	return fmt.Sprintf(" — `%s` from %s", mdCode(w.Formula), mdText(w.Root))
}

// findingList writes a titled list of findings, folded when long.
func (m *mdWriter) findingList(title string, fs []model.Finding) {
	if len(fs) == 0 {
		return
	}
	m.printf("%s:\n\n", title)
	for i, f := range fs {
		if i == foldOver {
			m.printf("\n<details><summary>%d more</summary>\n\n", len(fs)-foldOver)
		}
		if i >= maxChangesListed {
			m.omitted++
			continue
		}
		m.finding(fmt.Sprintf("- %s `%s` %s: %s\n", severityMark(f.Severity), mdCode(f.Rule), m.position(f), mdText(f.Message)))
	}
	if len(fs) > foldOver {
		m.printf("\n</details>\n")
	}
	m.printf("\n")
}

// event writes one triggering event: the diagram of its layers and the
// table of worst cases.
func (m *mdWriter) event(r *model.Result, root string) {
	// The heading and the table's head, with room for a row, or nothing.
	head := fmt.Sprintf("%s Event at `%s`\n\n", m.heading(3), mdCode(root))
	if !m.fits(len(head) + sectionRoom) {
		m.omittedEvents++
		return
	}
	m.b.WriteString(head)
	m.mermaid(layersOf(r, root))
	var rows []model.Chain
	for _, c := range r.Chains {
		if c.Root == root {
			rows = append(rows, c)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return worseRow(rows[i], rows[j]) })
	fold := len(rows) > 2*foldOver
	if fold {
		m.printf("<details><summary>Worst case of %d components</summary>\n\n", len(rows))
	}
	m.printf("| component | worst-case executions | formula | factors from | path |\n")
	m.printf("|---|---:|---|---|---|\n")
	left := 0
	for _, c := range rows {
		formula := "`" + mdCode(c.Formula) + "`"
		if c.Estimate != "" {
			formula += " (" + mdText(c.Estimate) + ")"
		}
		target := mdText(c.Target)
		if slices.Contains(r.Assumed, c.Target) {
			target += " _(assumed)_"
		}
		if !m.add(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", target, chainAttempts(c), formula, m.origins(c), mdText(strings.Join(c.Path, " → ")))) {
			left++
		}
	}
	if left > 0 {
		m.printf("\n_%s not listed here for size; the JSON report lists every chain._\n", plural(left, "more component is", "more components are"))
	}
	if fold {
		m.printf("\n</details>\n")
	}
	m.printf("\n")
}

// worseRow orders a root's table: the root first, then the most
// executions first, then by name.
func worseRow(a, b model.Chain) bool {
	if (a.Target == a.Root) != (b.Target == b.Root) {
		return a.Target == a.Root
	}
	wa := &model.Worst{Attempts: a.Attempts, Unbounded: a.Unbounded}
	wb := &model.Worst{Attempts: b.Attempts, Unbounded: b.Unbounded}
	if wa.Worse(wb) != wb.Worse(wa) {
		return wa.Worse(wb)
	}
	return a.Target < b.Target
}

// chainAttempts is a chain's executions for the table, bold above one.
func chainAttempts(c model.Chain) string {
	switch {
	case c.Unbounded || c.Attempts == nil:
		return "**unbounded**"
	case *c.Attempts > 1:
		return fmt.Sprintf("**%d**", *c.Attempts)
	}
	return fmt.Sprint(*c.Attempts)
}

// mermaid writes the layer graph as a Mermaid flowchart: the factor on each
// edge, failing components in red, dead retry layers dotted and grey.
func (m *mdWriter) mermaid(g *layerGraph) {
	if len(g.edges) > maxDiagramEdges {
		m.printf("_The %d retry layers of this event are too many to draw here; `--format dot` writes the graph for Graphviz._\n\n", len(g.edges))
		return
	}
	// Drawn into its own buffer, then added whole or not at all: a
	// diagram cut mid-fence would swallow the rest of the report.
	d := &mdWriter{opts: MarkdownOptions{MaxBytes: -1}}
	d.drawMermaid(g)
	if !m.add(d.b.String()) {
		m.printf("_The diagram of this event's %d retry layers is left out to keep the report within the size of a pull-request comment; `--format dot` writes the graph for Graphviz._\n\n", len(g.edges))
	}
}

// drawMermaid writes the diagram of g.
func (m *mdWriter) drawMermaid(g *layerGraph) {
	id := make(map[string]string, len(g.nodes))
	m.printf("```mermaid\nflowchart LR\n")
	for i, n := range g.nodes {
		id[n] = fmt.Sprintf("n%d", i)
		m.printf("  %s[\"%s\"]\n", id[n], mermaidText(n))
	}
	var dead, multiplying []int
	for i, e := range g.edges {
		arrow := "-->"
		switch {
		case e.dead():
			arrow = "-.->"
			dead = append(dead, i)
		case e.multiplies():
			arrow = "==>"
			multiplying = append(multiplying, i)
		}
		if l := e.originLabel(); l != "" {
			m.printf("  %s %s|\"%s\"| %s\n", id[e.From], arrow, mermaidText(l), id[e.To])
		} else {
			m.printf("  %s %s %s\n", id[e.From], arrow, id[e.To])
		}
	}
	var failing []string
	for _, n := range g.nodes {
		if g.failing[n] {
			failing = append(failing, id[n])
		}
	}
	if len(failing) > 0 {
		m.printf("  classDef failing fill:#ffeef0,stroke:#d73a49,stroke-width:2px,color:#86181d\n")
		m.printf("  class %s failing\n", strings.Join(failing, ","))
	}
	var assumed []string
	for _, n := range g.nodes {
		if g.assumed[n] {
			assumed = append(assumed, id[n])
		}
	}
	if len(assumed) > 0 {
		m.printf("  classDef assumed stroke-dasharray:5 5\n")
		m.printf("  class %s assumed\n", strings.Join(assumed, ","))
	}
	if len(dead) > 0 {
		m.printf("  linkStyle %s stroke:#6a737d,color:#6a737d\n", joinInts(dead))
	}
	if len(multiplying) > 0 {
		m.printf("  linkStyle %s stroke:#d73a49\n", joinInts(multiplying))
	}
	m.printf("```\n\n")
	var legend []string
	if len(failing) > 0 {
		legend = append(legend, "Red: a component with an error finding.")
	}
	if len(multiplying) > 0 {
		legend = append(legend, "Thick: a layer that multiplies executions.")
	}
	if len(dead) > 0 {
		legend = append(legend, "Dotted: a dead retry layer, whose predicate never sees the failure below it.")
	}
	if len(assumed) > 0 {
		legend = append(legend, "Dashed outline: a component no manifest describes; its numbers are its kind's defaults.")
	}
	if len(legend) > 0 {
		m.printf("<sub>%s</sub>\n\n", strings.Join(legend, " "))
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// findings writes the findings grouped by rule, the most severe rules first.
func (m *mdWriter) findings(fs []model.Finding) {
	if len(fs) == 0 {
		return
	}
	m.printf("%s Findings\n\n", m.heading(3))
	byRule := make(map[string][]model.Finding)
	var ids []string
	for _, f := range fs {
		if _, ok := byRule[f.Rule]; !ok {
			ids = append(ids, f.Rule)
		}
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	worst := func(id string) int {
		w := 0
		for _, f := range byRule[id] {
			w = max(w, f.Severity.Rank())
		}
		return w
	}
	sort.SliceStable(ids, func(i, j int) bool {
		if wi, wj := worst(ids[i]), worst(ids[j]); wi != wj {
			return wi > wj
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		m.ruleGroup(id, byRule[id])
	}
}

// ruleGroup writes the findings of one rule with the rule's fix once when
// every finding shares it.
func (m *mdWriter) ruleGroup(id string, fs []model.Finding) {
	title := "`" + mdCode(id) + "`"
	if info, ok := m.opts.Rules.lookup(id); ok && info.HelpURI != "" {
		title = fmt.Sprintf("[`%s`](%s)", mdCode(id), info.HelpURI)
	}
	head := fmt.Sprintf("%s %s %s (%d)\n\n", m.heading(4), severityMark(fs[0].Severity), title, len(fs))
	if !m.fits(len(head) + sectionRoom) {
		m.omitted += len(fs)
		return
	}
	m.b.WriteString(head)
	commonFix := fixOf(fs[0])
	for _, f := range fs {
		if fixOf(f) != commonFix {
			commonFix = ""
		}
	}
	for i, f := range fs {
		if i == foldOver {
			m.printf("\n<details><summary>%d more</summary>\n\n", len(fs)-foldOver)
		}
		line := fmt.Sprintf("- %s: %s\n", m.position(f), mdText(f.Message))
		if fix := fixOf(f); fix != "" && commonFix == "" {
			line += fmt.Sprintf("  **Fix:** %s\n", mdText(fix))
		}
		m.finding(line)
	}
	if len(fs) > foldOver {
		m.printf("\n</details>\n")
	}
	m.printf("\n")
	if commonFix != "" {
		m.add(fmt.Sprintf("**Fix:** %s\n\n", mdText(commonFix)))
	}
}

// fixOf is a finding's fix when its message does not already say it.
func fixOf(f model.Finding) string {
	if strings.Contains(f.Message, f.Fix) {
		return ""
	}
	return f.Fix
}

// position is a finding's file:line, a link when LinkBase is set.
func (m *mdWriter) position(f model.Finding) string {
	if f.File == "" {
		return "(no file)"
	}
	pos := "`" + mdCode(fmt.Sprintf("%s:%d", f.File, f.Line)) + "`"
	if url := m.link(f.File, f.Line); url != "" {
		return fmt.Sprintf("[%s](%s)", pos, url)
	}
	return pos
}

// link is the URL of file:line under LinkBase, or "" without a link base
// and for a file outside the repository, which has no page there.
func (m *mdWriter) link(file string, line int) string {
	if m.opts.LinkBase == "" || absPath(file) {
		return ""
	}
	url := strings.TrimSuffix(m.opts.LinkBase, "/") + "/" + fileURI(file)
	if line > 0 {
		url += fmt.Sprintf("#L%d", line)
	}
	return url
}

// severityMark is a severity as a symbol a reader sees at a glance.
func severityMark(s model.Severity) string {
	switch s {
	case model.Error:
		return "🔴"
	case model.Warning:
		return "🟡"
	}
	return "🔵"
}

// mdText escapes text for Markdown prose and table cells: nothing in it
// becomes markup, a link, HTML or a mention (a zero-width space after
// the @), and control characters are written as escapes (EscapeText).
func mdText(s string) string {
	var b strings.Builder
	s = escapeControls(s)
	for i, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@':
			b.WriteRune(r)
			if next, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.IsLetter(next) || unicode.IsDigit(next) {
				b.WriteString("&#8203;")
			}
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode makes s safe inside a single-backtick code span in a table.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", `\|`).Replace(escapeControls(s))
}

// mermaidText makes s safe inside a quoted Mermaid label.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "`", "#96;", "<", "#lt;", ">", "#gt;").Replace(escapeControls(s))
}

// escapeControls is s on one line for Markdown: a line break is a space,
// other control characters are written as escapes (EscapeText).
func escapeControls(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return EscapeText(s)
}

// origins lists where the factors of a chain that multiply come from, in
// path order, each a code span linked like a finding's place.
func (m *mdWriter) origins(c model.Chain) string {
	if c.Formula == "1" {
		return ""
	}
	var out []string
	if c.OmittedFactors > 0 {
		out = append(out, model.Elision)
	}
	for _, f := range c.Factors {
		if !f.Multiplies() || f.File == "" {
			continue
		}
		o := "`" + mdCode(f.Origin()) + "`"
		if url := m.link(f.File, f.Line); url != "" {
			o = fmt.Sprintf("[%s](%s)", o, url)
		}
		out = append(out, o)
	}
	return strings.Join(out, " × ")
}
