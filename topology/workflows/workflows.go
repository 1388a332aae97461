// Package workflows parses Google Cloud Workflows sources and analyses them for the retry
// topology: which external calls a workflow makes and under which retry policy, which paths end
// the execution FAILED, and which failure paths notify someone before failing.
//
// The analysis is static and conservative:
//
//   - Expressions ("${...}") are tokenized and parsed; their values are resolved as far as
//     string concatenation of literals and constants goes. Unknown parts become Wildcard, so
//     ${"namespaces/" + project + "/jobs/" + job} names the job "mapping-job" when job is the
//     constant "mapping-job" and project comes from sys.get_env.
//   - Failure paths come from a path-sensitive walk of each scope's control flow (next jumps,
//     switch fallthrough, for, parallel, try/retry/except, subworkflow calls) that tracks which
//     variables are assigned. A path fails on a raise, a re-raise in except, an error from a call
//     that can fail (HTTP, connectors, child executions, failing subworkflows) with no except to
//     catch it, or a read of a variable that is assigned elsewhere but not on that path.
//   - A call inside an except block can fail too; a path that needs that second failure is a
//     double fault, reported apart (Workflow.DoubleFaultPaths).
//   - Retry predicates are read into failure signals: the built-in policies from their
//     documented sets, custom predicate subworkflows from the conditions under which they return
//     true.
package workflows

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/internal/yamlpos"
	"github.com/retrylint/retrylint/model"
)

// Pos is a place in an input file: retrylint's one position type.
type Pos = model.Pos

// Error is a malformed Workflows source, with the place it was found.
type Error struct {
	Pos Pos
	Msg string
}

// Error renders "file:line:col: msg".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Workflow is the analysis of one Workflows source.
type Workflow struct {
	File string
	Pos  Pos // position of the document root
	// Calls are the steps reachable from main that invoke something outside the workflow,
	// with subworkflow calls followed.
	Calls []*Call
	// FailPaths are the ways an execution can end FAILED; empty means it always succeeds.
	FailPaths []FailPath
	// DoubleFaultPaths are ways to end FAILED that need a call inside an except block (a failure
	// notification, a cleanup) to fail as well. They are kept apart from FailPaths: they take two
	// independent failures.
	DoubleFaultPaths []FailPath
	// Notifications are HTTP calls made on a failure path (in an except block).
	Notifications []Notification
	// Params are the parameters of main.
	Params []string
	// ParamReads are the fields of main's parameters the workflow reads, e.g. "event.data.bucket".
	ParamReads []ParamRead
	// Subworkflows names the subworkflows defined in the source.
	Subworkflows []string
	// Approximate is set when the analysis hit a size bound and results may be incomplete;
	// ApproxPos and ApproxReason say where and which bound.
	Approximate  bool
	ApproxPos    Pos
	ApproxReason string
}

// Call is a step that invokes something outside the workflow.
type Call struct {
	Pos            Pos
	Step           string  // step name
	Function       string  // e.g. "http.post", "googleapis.run.v1.namespaces.jobs.run"
	Method         string  // the HTTP method of an http.* call ("POST"); "" when not known
	Target         Target  // what is invoked
	Waits          bool    // blocks until the target's outcome (jobs.run, executions.run)
	Timeout        float64 // seconds the call may wait; 0 = none known
	TimeoutDefault bool    // Timeout is the connector default, not set in the source
	// TaskTimeout and TaskCount are what a jobs.run call overrides in the job (overrides.timeout,
	// overrides.taskCount); 0 when not overridden or not known statically.
	TaskTimeout float64
	TaskCount   int
	Retry       *Retry // the policy of the innermost enclosing try with retry:, nil if none
	// Outer are the policies of the try blocks with retry: that enclose that one, innermost
	// first, across subworkflow calls: each re-runs its whole body, so the layers multiply.
	Outer []*Retry
	// Caught: an enclosing except handles a failure of this call and the execution does not end
	// FAILED on any path from there.
	Caught bool
	// Handled: some enclosing try has an except block (it may still re-raise).
	Handled  bool
	InExcept bool // the call is itself in an except block
	// Via lists the subworkflow calls followed to reach this call, outermost first.
	Via []string
}

// Target is what a call invokes.
type Target struct {
	Kind string // KindJob, KindService, KindWorkflow, KindHTTP or KindUnknown
	Name string // resolved resource name; unknown parts are Wildcard
	URL  string // for HTTP calls, the resolved URL with Wildcard for unknown parts
	Raw  string // the source text of the reference
	Pos  Pos
}

// Target kinds.
const (
	KindJob      = "cloudrun.job"
	KindService  = "cloudrun.service"
	KindWorkflow = "workflow"
	KindHTTP     = "http"
	KindUnknown  = "unknown"
)

// Retry is a retry policy of a try block.
type Retry struct {
	Pos Pos
	// Predicate names the predicate: a built-in such as "http.default_retry_predicate", a
	// subworkflow name, or for "retry: ${http.default_retry}" the policy name.
	Predicate string
	Signals   []string // failure signals the predicate retries
	Any       bool     // the predicate retries every failure
	Known     bool     // false if the predicate could not be read (Signals empty, Any false)
	// Raised are the signals the try body raises itself (a raise of a map with a code), which
	// the policy sees whatever its calls answer.
	Raised []string
	// MaxRetries is the number of retries after the first attempt; -1 when not known statically.
	MaxRetries int
	Backoff    *Backoff // nil when the policy has none
}

// Matches reports whether the predicate retries at least some failures reported as signal.
// An unreadable predicate matches nothing.
func (r *Retry) Matches(signal string) bool {
	if r == nil || !r.Known {
		return false
	}
	if r.Any {
		return true
	}
	want := signalSetOf(signal)
	for _, s := range r.Signals {
		if !signalSetOf(s).and(want).empty() {
			return true
		}
	}
	return false
}

// Backoff is the delay schedule of a retry policy, in seconds.
type Backoff struct {
	Initial, Max, Multiplier float64
	Pos                      Pos
}

// FailPath is one way an execution ends FAILED.
type FailPath struct {
	Pos    Pos      // where it fails
	Reason string   // e.g. "raise", "re-raise of ${e} in except", "error from http.post outside any try"
	Steps  []string // step names from the entry to the failure
	Kind   string   // FailRaise, FailReraise, FailCallError or FailUnassigned
}

// Kinds of FailPath.
const (
	FailRaise      = "raise"
	FailReraise    = "re-raise"
	FailCallError  = "call-error"
	FailUnassigned = "unassigned-read"
)

func failKind(reason string) string {
	switch {
	case reason == "raise":
		return FailRaise
	case strings.HasPrefix(reason, "re-raise"):
		return FailReraise
	case strings.HasPrefix(reason, "read of"):
		return FailUnassigned
	}
	return FailCallError
}

// Notification is an HTTP call made in an except block: it tells someone of a failure.
type Notification struct {
	Pos  Pos
	Step string
	URL  string
	// BeforeFail: after the notification the same path can still end the execution FAILED.
	BeforeFail bool
	Function   string
}

// ParamRead is a read of a field of one of main's parameters.
type ParamRead struct {
	Pos  Pos
	Path string // dotted path, e.g. "event.data.data"
}

var stepKeySet = map[string]bool{"call": true, "assign": true, "switch": true, "return": true,
	"raise": true, "try": true, "for": true, "parallel": true, "next": true, "steps": true}

// Looks reports whether a decoded YAML document is a Workflows source: a main: (or subworkflow)
// mapping with steps, or a top-level list of single-key step maps. Kubernetes-style manifests and
// the topology file are not claimed.
func Looks(doc *yaml.Node) bool {
	d := newDecoder("", 0, 0)
	root := d.derefOrNil(doc)
	if root == nil {
		return false
	}
	switch root.Kind {
	case yaml.SequenceNode:
		if len(root.Content) == 0 {
			return false
		}
		for _, item := range root.Content {
			if !looksLikeStep(d, d.derefOrNil(item)) {
				return false
			}
		}
		return true
	case yaml.MappingNode:
		for _, k := range []string{"apiVersion", "kind", "components", "version"} {
			if d.mapGet(root, k) != nil {
				return false
			}
		}
		if len(root.Content) == 0 {
			return false
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			v := d.derefOrNil(root.Content[i+1])
			if v == nil || v.Kind != yaml.MappingNode {
				return false
			}
			steps := d.mapGet(v, "steps")
			if steps == nil || steps.Kind != yaml.SequenceNode {
				return false
			}
			for _, item := range steps.Content {
				if !looksLikeStep(d, d.derefOrNil(item)) {
					return false
				}
			}
		}
		return true
	}
	return false
}

func looksLikeStep(d *decoder, item *yaml.Node) bool {
	if item == nil || item.Kind != yaml.MappingNode || len(item.Content) != 2 {
		return false
	}
	body := d.derefOrNil(item.Content[1])
	if body == nil || body.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(body.Content); i += 2 {
		if k := d.derefOrNil(body.Content[i]); k != nil && stepKeySet[k.Value] {
			return true
		}
	}
	return false
}

// MaxSourceSize is the largest source Parse accepts, in bytes.
const MaxSourceSize = 8 << 20

// Parse parses and analyses one Workflows source. A malformed source is an *Error.
func Parse(file string, src []byte) (*Workflow, error) {
	doc, err := Decode(file, src)
	if err != nil {
		return nil, err
	}
	return ParseNode(file, doc, 0, 0)
}

// Decode decodes the YAML of a Workflows source into its document node, as Parse does. A source
// that is not valid YAML is an error at the line and column where it breaks, as Workflows itself
// refuses it: an unquoted "${...}" value holding ": " is not read as the expression it may be
// meant to be. Errors are *Error with positions in src; a caller decoding an embedded source adds
// its offsets.
func Decode(file string, src []byte) (*yaml.Node, error) {
	if len(src) > MaxSourceSize {
		return nil, &Error{Pos: Pos{File: file, Line: 1, Col: 1},
			Msg: fmt.Sprintf("source is %d bytes, larger than the %d accepted", len(src), MaxSourceSize)}
	}
	if line, col, msg, ok := input.Encoding(src); !ok {
		return nil, &Error{Pos: Pos{File: file, Line: line, Col: col}, Msg: msg}
	}
	var doc yaml.Node
	if err := decodeYAML(src, &doc); err != nil {
		return nil, yamlError(file, src, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: "empty document: expected a Workflows source"}
	}
	yamlpos.Fix(src, &doc)
	if second, first := yamlpos.Duplicate(&doc); second != nil {
		return nil, &Error{Pos: Pos{File: file, Line: second.Line, Col: second.Column},
			Msg: fmt.Sprintf("invalid YAML: duplicate key %q (first at line %d, column %d)", second.Value, first.Line, first.Column)}
	}
	return &doc, nil
}

// decodeYAML decodes src into doc; a panic in the decoder is a decode error.
func decodeYAML(src []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(src, doc)
}

// yamlError turns a YAML syntax error into an *Error at the line and column where the source
// breaks (the decoder itself names a line only, often that of the enclosing block).
func yamlError(file string, src []byte, err error) *Error {
	line, col, msg := yamlpos.Locate(src, err)
	return &Error{Pos: Pos{File: file, Line: line, Col: col}, Msg: "invalid YAML: " + msg + QuoteHint(src, line, msg)}
}

// ParseNode parses and analyses an already decoded document (e.g. a Terraform heredoc);
// lineOffset and colOffset are added to every position it reports.
func ParseNode(file string, doc *yaml.Node, lineOffset, colOffset int) (w *Workflow, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, &Error{Pos: Pos{File: file, Line: 1 + lineOffset, Col: 1 + colOffset},
				Msg: fmt.Sprintf("internal error analysing the workflow: %v", r)}
		}
	}()
	if doc == nil {
		return nil, &Error{Pos: Pos{File: file, Line: 1 + lineOffset, Col: 1 + colOffset},
			Msg: "empty document: expected a Workflows source"}
	}
	d := newDecoder(file, lineOffset, colOffset)
	scopes, err := d.decodeDoc(doc)
	if err != nil {
		return nil, err
	}
	root, _ := d.deref(doc)
	a := &analyser{d: d, scopes: scopes, graphs: map[string]*graph{}, sums: map[string]*summary{},
		busy: map[string]bool{}}
	w = &Workflow{File: file, Pos: d.pos(root)}
	for name := range scopes {
		if name != "main" {
			w.Subworkflows = append(w.Subworkflows, name)
		}
	}
	sort.Strings(w.Subworkflows)
	for _, name := range w.Subworkflows {
		if _, err := a.graph(name); err != nil {
			return nil, err
		}
	}
	main, ok := scopes["main"]
	if !ok {
		return w, nil // a library of subworkflows: nothing runs on its own
	}
	if _, err := a.graph("main"); err != nil {
		return nil, err
	}
	a.resolveRetries()
	w.Params = main.params
	sum := a.summary("main")
	w.FailPaths, w.DoubleFaultPaths = sum.paths, sum.doubles
	a.collect(w, "main", sum, nil, siteInfo{}, 0, w.Pos)
	w.Approximate, w.ApproxPos, w.ApproxReason = a.approximate, a.approxPos, a.approxReason
	a.paramReads(w, sum)
	sort.SliceStable(w.Calls, func(i, j int) bool { return posLess(w.Calls[i].Pos, w.Calls[j].Pos) })
	sort.SliceStable(w.Notifications, func(i, j int) bool { return posLess(w.Notifications[i].Pos, w.Notifications[j].Pos) })
	return w, nil
}

func posLess(a, b Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// UnescapeTerraform undoes Terraform's template escapes in a heredoc or string literal
// ("$${" → "${", "%%{" → "%{") so the text can be decoded as a Workflows source.
func UnescapeTerraform(s string) string {
	return strings.NewReplacer("$${", "${", "%%{", "%{").Replace(s)
}
