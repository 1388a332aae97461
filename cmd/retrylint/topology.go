package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/report"
	"github.com/retrylint/retrylint/rules"
	"github.com/retrylint/retrylint/topology"
)

// topologyFlags are the flags of `retrylint topology`.
type topologyFlags struct {
	out    outputFlags
	gate   gateFlags
	budget int
	run    runFlags
}

// newTopologyCmd is `retrylint topology`: the infrastructure half.
func newTopologyCmd() *cobra.Command {
	f := topologyFlags{out: outputFlags{formats: []string{"text", "json", "sarif", "markdown", "dot", "github", "codeclimate"}}}
	cmd := &cobra.Command{
		Use:   "topology [flags] PATH...",
		Short: "Check the retry layers of infrastructure manifests",
		Long: `Loads manifests (files, directories walked recursively, globs): Cloud Run jobs
and services, Cloud Workflows source, Pub/Sub subscriptions, Eventarc triggers,
Cloud Scheduler jobs, Cloud Tasks queues, Kubernetes jobs, Terraform (.tf: the
files of a directory are one module) and retrylint topology files; an app
whose topology entry names its Go packages (source:) has the calls that name
a func: read from the retry loops of its code. Builds the graph of retry
layers, multiplies attempts along every path and runs the topology rules.

Exit status: 0 nothing at or above --fail-on, 1 findings at or above it,
2 invalid input (with file:line:col) or a bad flag.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run.within(cmd, func(w *watch) error {
				return runTopology(cmd.OutOrStdout(), cmd.ErrOrStderr(), args, f, w)
			})
		},
	}
	f.out.register(cmd)
	f.gate.register(cmd)
	fl := cmd.Flags()
	fl.IntVar(&f.budget, "budget", 0, "the most executions `N` of any component per event; over it amplification is an error")
	f.run.register(cmd, "list skipped files, topology-file overrides, assumed components and the calls read from Go code on standard error, and how long each phase took")
	return cmd
}

// runTopology is the whole command; nothing is written when the input is
// invalid.
func runTopology(stdout, stderr io.Writer, args []string, f topologyFlags, w *watch) error {
	if err := f.out.validate(); err != nil {
		return err
	}
	if err := f.gate.validate(); err != nil {
		return err
	}
	if f.budget < 0 {
		return fmt.Errorf("--budget: want a positive number, got %d", f.budget)
	}
	wd, cfg, err := f.gate.workConfig()
	if err != nil {
		return err
	}
	warnMisnamedConfig(stderr, &f.gate, wd, cfg)
	paths := pathsAt(wd, f.out.paths)
	base, err := f.gate.newFrom.prepare(wd, paths)
	if err != nil {
		return err
	}
	res, run, err := checkTopology(args, topology.Options{Skip: cfg.Ignored, Code: codeLoader(wd, cfg, nil, nil, w)}, f.budget, cfg.Budget, w)
	if err != nil {
		return err
	}
	if f.run.verbose {
		for _, g := range run.graphs {
			writeVerbose(stderr, g)
		}
	} else {
		writeSkipped(stderr, run.graphs)
	}
	if err := f.gate.apply(res, cfg, wd, stderr); err != nil {
		return err
	}
	baseRun := reportRun{flags: &reportFlags{topology: args, budget: f.budget}, cfg: cfg, wd: wd, watch: w}
	gated, err := base.narrow(res, f.out.writes("github"), wd, analyseWith(baseRun, f.gate.newFrom.rev), stderr)
	if err != nil {
		return err
	}
	written := newPathWriter(paths, stderr)
	written.result(res)
	for _, g := range run.graphs { // the text format's headings, as the findings name them
		g.Pipeline = written.dir(g.Pipeline)
	}
	base.note(written, stderr)
	f.out.source, f.out.annotate = written.source, base.annotations
	stop := w.start("write")
	err = writeTopology(stdout, res, run, f.out)
	stop()
	if err != nil {
		return err
	}
	return verdict(gated, f.out.failOn)
}

// writeTopology writes the reports of a topology run as out asks, --format's
// and each --output-FORMAT file: text with the chain tables, or another
// format.
func writeTopology(stdout io.Writer, res *model.Result, run *topologyRun, out outputFlags) error {
	return out.writeAll(stdout, func(w io.Writer, format string, color bool) error {
		if format == "text" { // with the chain tables
			return writeTopologyText(w, res, run, color)
		}
		opts := out.renderOptions(stdout)
		opts.color = color
		return render(w, res, format, opts)
	})
}

// topologyRun is what checkTopology found, per pipeline.
type topologyRun struct {
	graphs []*topology.Graph
	chains [][]model.Chain       // per graph, sorted
	infos  []map[string][]string // per graph: root → lines said under its table
}

// checkTopology loads the manifests under paths, multiplies attempts and
// runs the topology rules, per pipeline: the findings and one chain per
// (root, reachable component), sorted, each naming its pipeline when there
// are several. budget 0 takes the pipeline's
// topology file's budget, and without one fallback (the configuration's).
// An invalid input is an error naming file:line:col.
func checkTopology(paths []string, opts topology.Options, budget, fallback int, w *watch) (*model.Result, *topologyRun, error) {
	graphs, err := loadManifests(paths, opts, w)
	if err != nil {
		return nil, nil, err
	}
	defer w.start("topology")()
	res := newResult()
	res.Findings, res.Chains = []model.Finding{}, []model.Chain{}
	run := &topologyRun{graphs: graphs}
	for _, g := range graphs {
		b := budget
		if b == 0 && g.Budget == 0 {
			b = fallback
		}
		if err := multiply.CheckSize(g, multiply.MaxChains); err != nil {
			return nil, nil, err
		}
		findings, mult := rules.Run(g, rules.Options{Budget: b})
		// With several pipelines, each finding and chain says which it
		// is from, as the text output's headings do; one pipeline's
		// stay as they were.
		pipeline := ""
		if len(graphs) > 1 {
			pipeline = g.Pipeline
		}
		for i := range findings {
			findings[i].Pipeline = pipeline
		}
		res.Findings = append(res.Findings, findings...)
		chains := make([]model.Chain, 0, len(mult.Chains))
		for _, c := range mult.Chains {
			mc := c.Report()
			mc.Pipeline = pipeline
			mc.Assumed = len(graphs) > 1 && assumedComponent(c.Target)
			chains = append(chains, mc)
		}
		one := &model.Result{Chains: chains}
		one.Sort()
		run.chains = append(run.chains, chains)
		run.infos = append(run.infos, rules.ChainInfo(g))
		res.Chains = append(res.Chains, chains...)
		for name := range assumedNames(g) {
			res.Assumed = append(res.Assumed, name)
		}
		res.Scope = append(res.Scope, manifestsOf(g)...)
	}
	sort.Strings(res.Assumed)
	res.Assumed = slices.Compact(res.Assumed)
	res.Sort()
	return res, run, nil
}

// loadManifests loads the pipelines of the manifests under paths, saying
// on the progress line how many manifests it has read.
func loadManifests(paths []string, opts topology.Options, w *watch) ([]*topology.Graph, error) {
	defer w.start("load")()
	read := 0
	opts.Read = func() {
		read++
		w.say("read "+pluralize(read, "manifest", "manifests"), false)
	}
	graphs, err := topology.LoadPipelines(paths, opts)
	w.say("read "+pluralize(read, "manifest", "manifests"), true)
	return graphs, err
}

// assumedComponent reports whether c's numbers rest on the defaults of its
// kind: a job or workflow referenced but not loaded (an external API or a
// sink has no numbers of its own).
func assumedComponent(c *topology.Component) bool {
	return c.Assumed && c.Kind != topology.KindExternal && c.Kind != topology.KindSink
}

// writeVerbose lists what was skipped, what the topology file overrode and
// which calls were read from an app's Go code.
func writeVerbose(w io.Writer, g *topology.Graph) {
	esc := report.EscapeLineStart
	for _, s := range g.Skipped {
		fmt.Fprintf(w, "%s: skipped: %s\n", esc(s.File), s.Why)
	}
	for _, s := range g.Unfollowed {
		fmt.Fprintln(w, esc(s))
	}
	for _, c := range g.Components {
		if len(c.Overridden) > 0 {
			fmt.Fprintf(w, "%s: %s: topology file overrides %s\n", esc(c.Pos.String()), report.EscapeText(c.Name), report.EscapeText(strings.Join(c.Overridden, ", ")))
		}
		if c.Assumed {
			fmt.Fprintf(w, "%s: %s: assumed %s (%s)\n", esc(c.Pos.String()), report.EscapeText(c.Name), c.Kind, topology.KindDefaults(c.Kind))
		}
	}
	for _, e := range g.Edges {
		if !e.FromCode {
			continue
		}
		if len(e.Layers) == 0 {
			fmt.Fprintf(w, "%s: %s → %s: read from code: no retry loop reaches it (one attempt)\n", esc(e.Pos.String()), report.EscapeText(e.From.Name), report.EscapeText(e.To.Name))
			continue
		}
		for _, l := range e.Layers {
			n := fmt.Sprintf("%d retries", l.Retries)
			if l.Unbounded {
				n = "unbounded retries (" + l.Note + ")"
			}
			fmt.Fprintf(w, "%s: %s → %s: read from code: %s on %s in %s\n", esc(l.Pos.String()), report.EscapeText(e.From.Name), report.EscapeText(e.To.Name), n, l.Predicate, report.EscapeText(l.Func))
		}
	}
}

// writeSkipped says how many files a run left out, unless none or only
// those the configuration ignores.
func writeSkipped(w io.Writer, graphs []*topology.Graph) {
	n := 0
	for _, g := range graphs {
		for _, s := range g.Skipped {
			if s.Why != topology.SkipIgnored {
				n++
			}
		}
	}
	switch {
	case n == 1:
		fmt.Fprintln(w, "retrylint: skipped 1 file that is not a manifest retrylint reads; --verbose lists it")
	case n > 1:
		fmt.Fprintf(w, "retrylint: skipped %d files that are not manifests retrylint reads; --verbose lists them\n", n)
	}
}

// writeTopologyText writes findings compiler-style, then one table per root
// (component, worst-case attempts, formula), under a heading per pipeline
// when there are several, and a summary line.
func writeTopologyText(w io.Writer, res *model.Result, run *topologyRun, color bool) error {
	var b bytes.Buffer
	opts := report.TextOptions{Color: color}
	shown := withSharedPipelines(res)
	if run == nil || len(run.graphs) <= 1 {
		if err := report.WriteTextOptions(&b, shown, opts); err != nil {
			return err
		}
		infos := map[string][]string{}
		assumed := map[string]bool{}
		if run != nil && len(run.graphs) == 1 {
			infos, assumed = run.infos[0], assumedNames(run.graphs[0])
		}
		writeChainTables(&b, res.Chains, infos, assumed)
	} else if err := writePipelinesText(&b, shown, run, opts); err != nil {
		return err
	}
	if len(res.Findings) == 0 {
		fmt.Fprintln(&b, "\nno findings")
	}
	pipelines := 1
	if run != nil {
		pipelines = len(run.graphs)
	}
	fmt.Fprintf(&b, "\n%s\n", countLine(res.Findings, pipelines))
	_, err := io.WriteString(w, report.DefuseText(b.String()))
	return err
}

// writePipelinesText writes, under a heading per pipeline, its findings
// and then its tables; a finding of no pipeline the run holds comes first.
func writePipelinesText(b *bytes.Buffer, res *model.Result, run *topologyRun, opts report.TextOptions) error {
	byPipeline := map[string][]model.Finding{}
	known := map[string]bool{}
	for _, g := range run.graphs {
		known[g.Pipeline] = true
	}
	var stray []model.Finding
	for _, f := range res.Findings {
		if known[f.Pipeline] {
			byPipeline[f.Pipeline] = append(byPipeline[f.Pipeline], f)
		} else {
			stray = append(stray, f)
		}
	}
	write := func(fs []model.Finding) error {
		one := *res
		one.Findings = fs
		return report.WriteTextOptions(b, &one, opts)
	}
	if err := write(stray); err != nil {
		return err
	}
	for i, g := range run.graphs {
		fs, chains := byPipeline[g.Pipeline], run.chains[i]
		if len(fs) == 0 && len(chains) == 0 {
			continue
		}
		name := g.Pipeline
		if name == "" {
			name = "(the rest of what was named)"
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(b, "pipeline %s:\n", report.EscapeText(name))
		if err := write(fs); err != nil {
			return err
		}
		writeChainTables(b, chains, run.infos[i], assumedNames(g))
	}
	return nil
}

// assumedNames are the components of g whose numbers rest on the defaults
// of their kind.
func assumedNames(g *topology.Graph) map[string]bool {
	a := map[string]bool{}
	for _, c := range g.Components {
		if assumedComponent(c) {
			a[c.Name] = true
		}
	}
	return a
}

// withSharedPipelines names, at the end of its message, the pipeline of
// each finding in a file its pipeline's directory does not hold: a shared
// module reported by each root module that calls it reads as one line per
// pipeline, not as the same line repeated.
func withSharedPipelines(res *model.Result) *model.Result {
	if !slices.ContainsFunc(res.Findings, model.Finding.OutsidePipeline) {
		return res
	}
	out := *res
	out.Findings = slices.Clone(res.Findings)
	for i, f := range out.Findings {
		if f.OutsidePipeline() {
			out.Findings[i].Message += " (pipeline " + f.Pipeline + ")"
		}
	}
	return &out
}

// countLine counts the findings by severity: "2 errors, 3 warnings in 5
// pipelines".
func countLine(findings []model.Finding, pipelines int) string {
	counts := map[model.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []struct {
		sev        model.Severity
		one, other string
	}{{model.Error, "error", "errors"}, {model.Warning, "warning", "warnings"}, {model.Note, "note", "notes"}} {
		n := counts[s.sev]
		if n == 0 && s.sev == model.Note {
			continue
		}
		word := s.other
		if n == 1 {
			word = s.one
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, word))
	}
	unit := "pipelines"
	if pipelines == 1 {
		unit = "pipeline"
	}
	return fmt.Sprintf("%s in %d %s", strings.Join(parts, ", "), pipelines, unit)
}

// writeChainTables writes one table per root: component, worst-case
// attempts, formula; a component no manifest describes is marked
// "(assumed)": its numbers rest on the defaults of its kind.
func writeChainTables(b *bytes.Buffer, chains []model.Chain, infos map[string][]string, assumed map[string]bool) {
	root := ""
	var tb bytes.Buffer
	var tw *tabwriter.Writer
	flush := func() {
		if tw == nil {
			return
		}
		tw.Flush()
		for _, line := range infos[root] {
			fmt.Fprintf(&tb, "  info: %s\n", report.EscapeText(line))
		}
	}
	for _, c := range rootsFirst(chains) {
		if c.Root != root {
			flush()
			root = c.Root
			fmt.Fprintf(&tb, "\nevent at %s:\n", report.EscapeText(root))
			tw = tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  COMPONENT\tATTEMPTS\tFORMULA\tFROM")
		}
		attempts := "unbounded"
		if c.Attempts != nil {
			attempts = fmt.Sprint(*c.Attempts)
			if !c.Unbounded && *c.Attempts == 1<<63-1 {
				attempts = "≥ " + attempts
			}
		}
		formula := c.Formula
		if c.Estimate != "" {
			formula += " (" + c.Estimate + ")"
		}
		target := c.Target
		if assumed[target] {
			target += " (assumed)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", report.EscapeText(target), attempts, report.EscapeText(formula), report.EscapeText(strings.Join(c.Origins(), " × ")))
	}
	flush()
	// A row whose factors all are 1 has no origin: no padding after it.
	for _, line := range strings.SplitAfter(tb.String(), "\n") {
		b.WriteString(strings.TrimRight(strings.TrimSuffix(line, "\n"), " "))
		if strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
	}
}

// rootsFirst orders chains by root, the root's own row first.
func rootsFirst(chains []model.Chain) []model.Chain {
	out := append([]model.Chain(nil), chains...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		return a.Target == a.Root && b.Target != b.Root
	})
	return out
}
