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
	// HostLayers is Layers for the functions whose code holds a URL on
	// host (a string constant or literal); found is false when no function
	// of source shows one.
	HostLayers(dir, source, host string) (layers []CodeLayer, found bool, err error)
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
	// CountUnknown: something bounds the loop (an attempt limit that is
	// not a constant, a deadline, the context) but not a count the
	// analysis can read; Unbounded is the worst case, and a `retries:`
	// written on the call gives the count instead.
	CountUnknown bool
}

// fromCode fills the calls of an app whose `source:` is read with the
// retry layers of its code. What the topology file also states by hand is
// checked against the code; a mismatch is a topology-code-drift finding
// and the code wins.
func (lk *linker) fromCode(c *Component) error {
	code := lk.ld.opts.Code
	for _, call := range c.Calls {
		if call.Func == "" && c.Source != "" && code != nil && call.Kind == EdgeCall {
			if to := lk.find(call.To, call.ToKind); to != nil && to.Kind == KindExternal && to.Host != "" {
				layers, found, err := code.HostLayers(c.SourceDir, c.Source, to.Host)
				if err != nil {
					return lk.codeError(c, call, err)
				}
				if found {
					lk.apply(c, call, layers, "no retry loop reaches a call of "+to.Host)
				}
			}
			continue
		}
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
		if err != nil {
			return lk.codeError(c, call, err)
		}
		lk.apply(c, call, layers, "no retry loop reaches "+call.Func)
	}
	return nil
}

// codeError places an error of reading the code: at `source:` when the
// packages did not load, at `func:` otherwise.
func (lk *linker) codeError(c *Component, call *Call, err error) error {
	var se *SourceError
	if errors.As(err, &se) || call.Func == "" {
		msg := err.Error()
		if se != nil {
			msg = se.Msg
		}
		return errorf(c.SourcePos, "component %s: source %q: %s", c.Name, c.Source, msg)
	}
	return errorf(call.FuncPos, "component %s: func %q: %v", c.Name, call.Func, err)
}

// apply makes the code's layers the policy of call, after checking what
// the file states against them; none is written when no loop reaches the
// callee (one attempt), as none says.
func (lk *linker) apply(c *Component, call *Call, layers []CodeLayer, none string) {
	lk.drift(c, call, layers, none)
	if n := len(layers); n > 0 && layers[n-1].CountUnknown && call.RetryPos.IsValid() {
		// The code cannot say how often; the file does.
		layers = append([]CodeLayer(nil), layers...)
		in := &layers[n-1]
		in.Retries, in.Unbounded, in.Pos = call.Retries, call.Unbounded, call.RetryPos
		in.Note = "retries from the topology file: the code's limit (" + in.Note + ") has no count the analysis can read"
	}
	call.Layers = layers
	call.FromCode = true
	call.Retries, call.Unbounded, call.Backoff = 0, false, nil
	call.Predicate = Predicate{Any: true, Known: true}
	call.RetryPos, call.Note = Pos{}, ""
	if len(layers) == 0 {
		return
	}
	in := layers[len(layers)-1] // the innermost loop is the call's own policy
	call.Retries, call.Unbounded, call.Predicate, call.Backoff = in.Retries, in.Unbounded, in.Predicate, in.Backoff
	call.RetryPos, call.Note = in.Pos, in.Note
}

// drift compares what the topology file states about call with what the
// code does.
func (lk *linker) drift(c *Component, call *Call, layers []CodeLayer, none string) {
	codeRetries, codeUnbounded := 0, false
	codePred := Predicate{Any: true, Known: true}
	at := none
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
	countUnknown := len(layers) > 0 && layers[len(layers)-1].CountUnknown
	if call.RetryPos.IsValid() && !countUnknown && (call.Unbounded != codeUnbounded || call.Retries != codeRetries) {
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
