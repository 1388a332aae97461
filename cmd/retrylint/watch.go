package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"
)

// runFlags are how a run conducts itself, whatever it checks: --progress,
// -v/--verbose and --timeout.
type runFlags struct {
	progress bool
	verbose  bool
	timeout  time.Duration
}

// register adds the flags to cmd; verbose says what -v prints.
func (r *runFlags) register(cmd *cobra.Command, verbose string) {
	f := cmd.Flags()
	f.BoolVar(&r.progress, "progress", false, "show a progress line on standard error (default: on a terminal, unless CI is set; --progress=false: never)")
	f.BoolVarP(&r.verbose, "verbose", "v", false, verbose)
	f.DurationVar(&r.timeout, "timeout", 0, "end the run with exit status 2 once it has taken `DURATION` (e.g. 10m); 0 waits as long as it takes")
}

// terminalKey marks in a command's context whether standard error, before
// any wrapping, is a terminal: where the progress line is shown by
// default.
type terminalKey struct{}

// withTerminal records in ctx whether stderr is a terminal.
func withTerminal(ctx context.Context, stderr io.Writer) context.Context {
	return context.WithValue(ctx, terminalKey{}, isTerminal(stderr))
}

// stderrIsTerminal reports what withTerminal recorded; false when nothing.
func stderrIsTerminal(ctx context.Context) bool {
	tty, _ := ctx.Value(terminalKey{}).(bool)
	return tty
}

// within runs body with the watch of the run; its phases' times are said
// on standard error at the end with -v. With --timeout, a body that takes
// longer is left: the cleanups run (temporary files, the base's
// worktree) and hold their lock, so that nothing more is written, and the
// error says what happened. The process must exit next, as after a
// signal.
func (r *runFlags) within(cmd *cobra.Command, body func(w *watch) error) error {
	if r.timeout < 0 {
		return fmt.Errorf("--timeout: want a duration of 0 or more, got %s", r.timeout)
	}
	if r.timeout == 0 {
		w := r.newWatch(cmd, cmd.ErrOrStderr())
		err := body(w)
		w.finish()
		return err
	}
	stdout, stderr := &gate{w: cmd.OutOrStdout()}, &gate{w: cmd.ErrOrStderr()}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	w := r.newWatch(cmd, stderr)
	done := make(chan error, 1)
	go func() {
		err := body(w)
		w.finish()
		done <- err
	}()
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
	}
	stdout.close()
	stderr.close()
	if w.progress != nil && w.progress.inPlace {
		io.WriteString(stderr.w, clearLine)
	}
	pending.runAll()
	return fmt.Errorf("timed out after %s (--timeout); the run was stopped, nothing written", r.timeout)
}

// gate is a writer that can be closed while another goroutine writes:
// what comes after close is dropped.
type gate struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, os.ErrClosed
	}
	return g.w.Write(p)
}

// Unwrap is the writer behind the gate: a terminal for isTerminal.
func (g *gate) Unwrap() io.Writer { return g.w }

// close waits for a write under way, then drops what follows.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// newWatch is the watch of a run of cmd that says things on stderr.
func (r *runFlags) newWatch(cmd *cobra.Command, stderr io.Writer) *watch {
	w := &watch{stderr: stderr, verbose: r.verbose, spent: map[string]time.Duration{}}
	show := stderrIsTerminal(cmd.Context()) && os.Getenv("CI") == ""
	if cmd.Flags().Changed("progress") {
		show = r.progress
	}
	if show {
		w.progress = &progress{w: stderr, inPlace: stderrIsTerminal(cmd.Context())}
	}
	return w
}

// watch follows a run: its progress line and the time of each phase
// (load, analyse, topology, write). Its methods may be called on nil.
type watch struct {
	stderr   io.Writer
	verbose  bool
	progress *progress

	mu     sync.Mutex
	order  []string                 // the phases, in the order they began
	spent  map[string]time.Duration // per phase, excluding the phases it started
	stack  []string                 // the phases under way, the current last
	resume time.Time                // when the current phase last resumed
}

// start begins phase, pausing the one under way; stop ends it and resumes
// that one. A phase met again adds up.
func (w *watch) start(phase string) (stop func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.account()
	if _, seen := w.spent[phase]; !seen {
		w.order = append(w.order, phase)
		w.spent[phase] = 0
	}
	w.stack = append(w.stack, phase)
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.account()
		w.stack = w.stack[:len(w.stack)-1]
	}
}

// account adds the time since the current phase resumed to it.
func (w *watch) account() {
	now := time.Now()
	if n := len(w.stack); n > 0 {
		w.spent[w.stack[n-1]] += now.Sub(w.resume)
	}
	w.resume = now
}

// say shows what the run is doing on the progress line, as often as the
// line is meant to change; last shows it whatever the time (a phase's
// count when it ends).
func (w *watch) say(text string, last bool) {
	if w == nil || w.progress == nil {
		return
	}
	w.progress.show(text, last)
}

// finish clears the progress line and, with -v, says the time of each
// phase.
func (w *watch) finish() {
	if w == nil {
		return
	}
	if w.progress != nil {
		w.progress.clear()
	}
	if !w.verbose {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	total := time.Duration(0)
	for _, p := range w.order {
		fmt.Fprintf(w.stderr, "retrylint: time: %-8s %s\n", p, roundDuration(w.spent[p]))
		total += w.spent[p]
	}
	fmt.Fprintf(w.stderr, "retrylint: time: %-8s %s\n", "total", roundDuration(total))
}

// roundDuration is d to a precision a person reads: ms under a second.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Millisecond)
}

// clearLine erases the terminal's line from the cursor on.
const clearLine = "\x1b[K"

// progress is the progress line: on a terminal one line rewritten in
// place, elsewhere (--progress) a line now and then.
type progress struct {
	w       io.Writer
	inPlace bool

	mu    sync.Mutex
	last  time.Time
	shown string
}

// show writes text unless the line changed less than an interval ago.
func (p *progress) show(text string, force bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	interval := 2 * time.Second
	if p.inPlace {
		interval = 100 * time.Millisecond
	}
	now := time.Now()
	if text == p.shown || !force && now.Sub(p.last) < interval {
		return
	}
	p.last, p.shown = now, text
	if p.inPlace {
		// The text, the rest of the old one erased, the cursor back at
		// the start: what is written next overwrites it.
		fmt.Fprintf(p.w, "retrylint: %s%s\r", text, clearLine)
		return
	}
	fmt.Fprintf(p.w, "retrylint: %s\n", text)
}

// clear erases the line on a terminal.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inPlace && p.shown != "" {
		io.WriteString(p.w, clearLine)
	}
	p.shown = ""
}
