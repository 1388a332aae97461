package topology

import (
	"errors"
	"fmt"
	"strings"
)

// Code reads the retry layers of an app's Go code: what `source:` and a
// call's `func:` name in the topology file. The code half implements it
// (package codelayer); the loader only asks.
type Code interface {
	// Layers returns the retry loops of the Go packages source (package
	// patterns relative to dir) whose operation reaches a function that fn
	// names, directly, through wrappers or across packages, outermost
	// first: nested loops multiply. No loop reaching it is no layer (one
	// attempt). An error says what could not be read or matched.
	Layers(dir, source, fn string) ([]CodeLayer, error)
}

// SourceError is a `source:` that names no Go package that loads and
// type-checks; Msg says why.
type SourceError struct{ Msg string }

func (e *SourceError) Error() string { return e.Msg }

// CodeLayer is one retry loop of the code on a call, in the topology's
// terms.
type CodeLayer struct {
	Retries   int  // retries after the first attempt
	Unbounded bool // no attempt limit the analysis can count
	Predicate Predicate
	Backoff   *Backoff
	Pos       Pos    // the loop in its Go file
	Func      string // the function holding the loop, for messages
	Note      string // how the retries were read, when not a plain count
}

// fromCode fills the calls of an app whose `source:` is read with the
// retry layers of its code. What the topology file also states by hand is
// checked against the code; a mismatch is a topology-code-drift finding
// and the code wins.
func (lk *linker) fromCode(c *Component) error {
	code := lk.ld.opts.Code
	for _, call := range c.Calls {
		if call.Func == "" {
			continue
		}
		if c.Source == "" {
			return errorf(call.FuncPos, "component %s: func: needs `source:` on the component, naming the Go packages to read", c.Name)
		}
		if code == nil {
			continue
		}
		layers, err := code.Layers(c.SourceDir, c.Source, call.Func)
		var se *SourceError
		if errors.As(err, &se) {
			return errorf(c.SourcePos, "component %s: source %q: %s", c.Name, c.Source, se.Msg)
		}
		if err != nil {
			return errorf(call.FuncPos, "component %s: func %q: %v", c.Name, call.Func, err)
		}
		lk.drift(c, call, layers)
		call.Layers = layers
		call.FromCode = true
		call.Retries, call.Unbounded, call.Backoff = 0, false, nil
		call.Predicate = Predicate{Any: true, Known: true}
		call.RetryPos, call.Note = Pos{}, ""
		if len(layers) == 0 {
			continue
		}
		in := layers[len(layers)-1] // the innermost loop is the call's own policy
		call.Retries, call.Unbounded, call.Predicate, call.Backoff = in.Retries, in.Unbounded, in.Predicate, in.Backoff
		call.RetryPos, call.Note = in.Pos, in.Note
	}
	return nil
}

// drift compares what the topology file states about call with what the
// code does.
func (lk *linker) drift(c *Component, call *Call, layers []CodeLayer) {
	codeRetries, codeUnbounded := 0, false
	codePred := Predicate{Any: true, Known: true}
	at := "no retry loop reaches " + call.Func
	if n := len(layers); n > 0 {
		in := layers[n-1]
		codeUnbounded = in.Unbounded
		codeRetries = in.Retries
		codePred = in.Predicate
		at = fmt.Sprintf("the retry loop in %s at %s", in.Func, in.Pos)
		if n > 1 {
			at += fmt.Sprintf(" (innermost of %d nested loops)", n)
		}
	}
	var diffs []string
	if call.RetryPos.IsValid() && (call.Unbounded != codeUnbounded || call.Retries != codeRetries) {
		diffs = append(diffs, fmt.Sprintf("the file says %s (%s), the code %s",
			retriesWord(call.Retries, call.Unbounded), call.RetryPos, retriesWord(codeRetries, codeUnbounded)))
	}
	if call.OnPos.IsValid() && len(layers) > 0 && !samePredicate(call.Predicate, codePred) {
		diffs = append(diffs, fmt.Sprintf("the file says on %s (%s), the code retries on %s",
			call.Predicate, call.OnPos, codePred))
	}
	if len(diffs) == 0 {
		return
	}
	p := call.RetryPos
	if !p.IsValid() {
		p = call.OnPos
	}
	lk.findings = append(lk.findings, Finding{Rule: "topology-code-drift", Pos: p, Component: c.Name,
		Message: fmt.Sprintf("the call of %s to %s disagrees with its Go code: %s; the code is %s, and the code wins",
			c.Name, call.To, strings.Join(diffs, "; "), at)})
}

func retriesWord(n int, unbounded bool) string {
	switch {
	case unbounded:
		return "retries without limit"
	case n == 1:
		return "retries once"
	}
	return fmt.Sprintf("retries %d times", n)
}

// samePredicate reports whether two predicates retry the same signals.
func samePredicate(a, b Predicate) bool {
	if a.Any || !a.Known || b.Any || !b.Known {
		return (a.Any || !a.Known) == (b.Any || !b.Known)
	}
	return a.Signals.Normalize().String() == b.Signals.Normalize().String()
}
