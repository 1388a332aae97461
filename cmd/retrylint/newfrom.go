package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"
)

// newFromFlags are --new-from-rev and --new-from-patch, as golangci-lint
// names them: report and gate only the findings a change adds.
type newFromFlags struct {
	rev   string
	patch string
}

// register adds the flags to cmd.
func (n *newFromFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&n.rev, "new-from-rev", "", "report and gate only the findings new against git revision `REV`, analysed in a temporary worktree; the github format annotates only lines changed since REV")
	f.StringVar(&n.patch, "new-from-patch", "", "report and gate only the findings on lines the unified diff `FILE` adds (git diff's paths, from the repository root)")
}

// validate checks the flags before any work is done.
func (n *newFromFlags) validate() error {
	if n.rev != "" && n.patch != "" {
		return errors.New("--new-from-rev and --new-from-patch: give one of them")
	}
	return nil
}

// flag is the flag given, for messages, or "".
func (n *newFromFlags) flag() string {
	switch {
	case n.rev != "":
		return "--new-from-rev"
	case n.patch != "":
		return "--new-from-patch"
	}
	return ""
}

// maxPatchSize caps what is read of a --new-from-patch file.
const maxPatchSize = 256 << 20

// changedLines are the lines of one file that a change adds: the "+"
// lines of its hunks, numbered in the new file.
type changedLines struct {
	whole bool // a file git does not track yet: every line is new
	lines map[int]bool
}

// newFrom is the base a run's findings are compared with: a commit,
// whose findings a finding must not have to be new, or a patch, on whose
// added lines a finding must be.
type newFrom struct {
	flag    string                   // "--new-from-rev main", for messages
	rev     string                   // the revision as given; "" for a patch
	commit  string                   // the commit rev names
	top     string                   // the repository holding the working directory
	sub     string                   // the working directory relative to top, a slash path
	changed map[string]*changedLines // by the file's path from the repository root
	key     func(file string) string // a finding's file as changed names it

	base        *model.Result   // the base's analysis, when the run has it already
	unannotated []model.Finding // new, but on no line the change touched
	annotated   []bool          // per finding narrow kept: on a line the change touched
}

// prepare reads the patch, or resolves the revision and the lines changed
// since it, before any analysis: a bad revision or patch ends the run
// (exit status 2) before work is done. Without either flag it returns
// nil, which leaves every finding in.
func (n *newFromFlags) prepare(wd string, paths repoPaths) (*newFrom, error) {
	switch {
	case n.patch != "":
		return patchBase(n.patch, paths)
	case n.rev != "":
		return revBase(wd, n.rev)
	}
	return nil, nil
}

// patchBase is the base of --new-from-patch file, whose paths are read as
// the run writes its own: from the repository root (or --path-prefix).
func patchBase(file string, paths repoPaths) (*newFrom, error) {
	src, err := input.Read(file, maxPatchSize)
	if err != nil {
		return nil, fmt.Errorf("--new-from-patch %s: %v", file, err)
	}
	changed, err := parsePatch(file, src)
	if err != nil {
		return nil, err
	}
	return &newFrom{flag: "--new-from-patch " + file, changed: changed, key: func(f string) string {
		p, _ := paths.file(f)
		return p
	}}, nil
}

// revBase is the base of --new-from-rev rev: its commit in the repository
// of wd, and the lines changed since it, tracked (git diff) or not.
func revBase(wd, rev string) (*newFrom, error) {
	flag := "--new-from-rev " + rev
	top, err := git(wd, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s: %s is not in a git repository", flag, wd)
	}
	commit, err := git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s: not a commit of %s (in a shallow clone, fetch it first, e.g. actions/checkout with fetch-depth: 0)", flag, top)
	}
	realWD, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return nil, err
	}
	sub, err := filepath.Rel(top, realWD)
	if err != nil || !filepath.IsLocal(sub) {
		return nil, fmt.Errorf("%s: the working directory is outside %s", flag, top)
	}
	b := &newFrom{flag: flag, rev: rev, commit: commit, top: top, sub: filepath.ToSlash(sub)}
	b.key = b.repoPath
	diff, err := gitBytes(top, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--unified=0", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("%s: git diff: %v", flag, err)
	}
	if b.changed, err = parsePatch("git diff "+rev, diff); err != nil {
		return nil, err
	}
	untracked, err := gitBytes(top, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("%s: git ls-files: %v", flag, err)
	}
	for _, f := range strings.Split(string(untracked), "\x00") {
		if f != "" {
			b.changed[f] = &changedLines{whole: true}
		}
	}
	return b, nil
}

// repoPath is a finding's file (relative to the working directory, or
// absolute) as a path from the repository root, or "" outside it.
func (b *newFrom) repoPath(file string) string {
	if !filepath.IsAbs(file) {
		return path.Join(b.sub, file)
	}
	rel, err := filepath.Rel(b.top, file)
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// gitBytes runs git in dir and returns its standard output as it is.
func gitBytes(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out.Bytes(), nil
}

// touched reports whether a line of f is one the change adds.
func (b *newFrom) touched(f model.Finding) bool {
	if f.File == "" {
		return false
	}
	c := b.changed[b.key(f.File)]
	switch {
	case c == nil:
		return false
	case c.whole:
		return true
	}
	for l := f.Line; l <= max(f.Line, f.EndLine); l++ {
		if c.lines[l] {
			return true
		}
	}
	return false
}

// narrow keeps in res the findings new against the base and returns them:
// the findings the gate counts. With a revision, analyse runs the same
// analysis over the base's tree (given the counterpart of wd in it) and a
// finding is new when its fingerprint is not among the base's; with a
// patch, or a base that does not analyse, when it is on a line the change
// adds. The github format annotates the diff: when the run writes it
// (annotates), annotations keeps only the new findings on lines the
// change adds, and note says the others; the run's other reports keep
// every new finding. A nil b keeps every finding.
func (b *newFrom) narrow(res *model.Result, annotates bool, wd string, analyse func(root string) (*model.Result, error), stderr io.Writer) ([]model.Finding, error) {
	if b == nil {
		return res.Findings, nil
	}
	fresh := slices.DeleteFunc(slices.Clone(res.Findings), func(f model.Finding) bool { return !b.touched(f) })
	if b.commit != "" {
		base, err := b.analyseBase(wd, analyse, stderr)
		if err != nil {
			return nil, err
		}
		if base != nil {
			fresh = newAgainst(res.Findings, base, b.touched)
		}
	}
	res.Findings = fresh
	if annotates {
		b.annotated = make([]bool, len(fresh))
		for i, f := range fresh {
			if b.annotated[i] = b.touched(f); !b.annotated[i] {
				b.unannotated = append(b.unannotated, f)
			}
		}
	}
	return fresh, nil
}

// annotations is what the github format shows of res, whose findings are
// those narrow kept (their paths as the report writes them): the ones on
// lines the change touched. A nil b, or a run that annotates nothing,
// shows res whole.
func (b *newFrom) annotations(res *model.Result) *model.Result {
	if b == nil || len(b.annotated) != len(res.Findings) {
		return res
	}
	out := *res
	out.Findings = nil
	for i, f := range res.Findings {
		if b.annotated[i] {
			out.Findings = append(out.Findings, f)
		}
	}
	return &out
}

// analyseBase checks the base commit out into a temporary worktree and
// returns the findings of analyse there, with the paths as the working
// tree's. A base that does not analyse (its packages do not type-check,
// a pattern matches nothing there) gives nil and a note: new findings
// are then those on lines changed since it. A worktree that cannot be
// made is an error.
func (b *newFrom) analyseBase(wd string, analyse func(root string) (*model.Result, error), stderr io.Writer) ([]model.Finding, error) {
	if b.base != nil {
		return b.base.Findings, nil
	}
	root, cleanup, err := checkoutCommit(b.top, wd, b.flag, b.commit)
	if err != nil {
		return nil, err
	}
	res, err := func() (*model.Result, error) {
		defer cleanup() // on a panic in the analysis too
		return analyse(root)
	}()
	if err != nil {
		fmt.Fprintf(stderr, "retrylint: %s: the base does not analyse (%s); new findings are those on lines changed since it\n", b.flag, report.EscapeText(firstLine(err.Error())))
		return nil, nil
	}
	return res.Findings, nil
}

// sameCommit reports whether the git ref base (report --base) is the
// commit of --new-from-rev, whose analysis the run then has already.
func (b *newFrom) sameCommit(wd, base string) bool {
	if b == nil || b.commit == "" || writtenAsPath(base) {
		return false
	}
	commit, err := git(wd, "rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}")
	return err == nil && commit == b.commit
}

// reuse takes res, the same analysis of the same commit, for the base's.
func (b *newFrom) reuse(res *model.Result) { b.base = res }

// analyseWith is the analysis of run over a base's tree, for narrow: the
// tree of rev checked out, the errors prefixed with it; an input error
// comes back as its first line rather than printed.
func analyseWith(run reportRun, rev string) func(root string) (*model.Result, error) {
	return func(root string) (*model.Result, error) {
		var errs bytes.Buffer
		run.stderr = &errs
		res, err := run.run(root, rev)
		if err != nil && errs.Len() > 0 {
			return nil, errors.New(firstLine(errs.String()))
		}
		return res, err
	}
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// newAgainst returns the findings of head that the base does not have, in
// head's order. Findings of one identity (fingerprint: rule, file,
// message…) are counted: when head has more than the base, the change
// added the difference, and those are taken first from the lines the
// change touched, then from the last in the file, so that a loop copied
// above its original is the one reported.
func newAgainst(head, base []model.Finding, touched func(model.Finding) bool) []model.Finding {
	inBase := make(map[string]int)
	for _, f := range base {
		inBase[identity(f)]++
	}
	byID := make(map[string][]int)
	var ids []string
	for i, f := range head {
		id := identity(f)
		if _, ok := byID[id]; !ok {
			ids = append(ids, id)
		}
		byID[id] = append(byID[id], i)
	}
	isNew := make([]bool, len(head))
	for _, id := range ids {
		idx := byID[id]
		extra := len(idx) - inBase[id]
		if extra <= 0 {
			continue
		}
		slices.SortStableFunc(idx, func(i, j int) int { return addedFirst(head[i], head[j], touched) })
		for _, i := range idx[:extra] {
			isNew[i] = true
		}
	}
	out := []model.Finding{}
	for i, f := range head {
		if isNew[i] {
			out = append(out, f)
		}
	}
	return out
}

// identity is what tells a finding from others, whatever its line: its
// fingerprint as the only one of its kind.
func identity(f model.Finding) string {
	return model.Fingerprints([]model.Finding{f})[0]
}

// addedFirst orders findings of one identity by how likely the change
// added them: on a touched line first, then the later in the file.
func addedFirst(a, b model.Finding, touched func(model.Finding) bool) int {
	if ta, tb := touched(a), touched(b); ta != tb {
		if ta {
			return -1
		}
		return 1
	}
	if a.Line != b.Line {
		return b.Line - a.Line
	}
	return b.Column - a.Column
}

// note says on stderr each new finding the github format did not
// annotate, with its path as the report writes it: it still counts.
func (b *newFrom) note(paths *pathWriter, stderr io.Writer) {
	if b == nil {
		return
	}
	for _, f := range b.unannotated {
		fmt.Fprintf(stderr, "retrylint: %s:%d:%d: %s: %s: %s (new against %s, on a line the change did not touch: not annotated)\n",
			report.EscapeText(paths.file(f.File)), f.Line, f.Column, f.Severity, report.EscapeText(f.Rule), report.EscapeText(f.Message), report.EscapeText(b.rev))
	}
}

// hunkHeaderRE matches a unified diff's hunk header: the old and the new
// range, each "start" or "start,count".
var hunkHeaderRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// maxHunkLine bounds a hunk header's numbers: far above any file.
const maxHunkLine = 1 << 40

// patchReader reads a unified diff line by line.
type patchReader struct {
	name    string
	changed map[string]*changedLines
	file    *changedLines // the file the next hunks are of; nil for /dev/null
	named   bool          // a "+++ " line named the next hunks' file
	isDiff  bool          // a "+++ " or "diff --git" line was read

	hunk             int // the line of the current hunk's header; 0 outside a hunk
	oldN, newN       int // the current hunk's sizes
	oldLeft, newLeft int // its lines not read yet
	next             int // the new file's line the next line of the hunk is
}

// parsePatch reads a unified diff, as git diff and diff -u write it, and
// returns the lines each file gains, by the new file's path without
// git's "b/" (as git apply and patch -p1 read it). What is outside the
// hunks and their "---"/"+++" headers (git's extended headers, a mail's
// text) is skipped. An empty patch changes nothing. name is the patch's
// name in errors, which say name:line:col.
func parsePatch(name string, src []byte) (map[string]*changedLines, error) {
	p := &patchReader{name: name, changed: make(map[string]*changedLines)}
	lines := splitLines(src)
	for i, line := range lines {
		if err := p.line(i+1, strings.TrimSuffix(line, "\n")); err != nil {
			return nil, err
		}
	}
	if p.hunk != 0 {
		return nil, p.cutShort(len(lines) + 1)
	}
	if !p.isDiff && len(bytes.TrimSpace(src)) > 0 {
		return nil, fmt.Errorf("%s:1:1: not a unified diff: no \"+++ \" line names a changed file (write one with git diff)", name)
	}
	return p.changed, nil
}

// line reads line n of the patch.
func (p *patchReader) line(n int, text string) error {
	if p.hunk != 0 {
		return p.hunkLine(n, text)
	}
	header := strings.TrimSuffix(text, "\r")
	switch {
	case strings.HasPrefix(header, "diff --git "):
		p.isDiff, p.named, p.file = true, false, nil
	case strings.HasPrefix(header, "+++ "):
		return p.fileHeader(n, header[len("+++ "):])
	case strings.HasPrefix(header, "@@ "):
		return p.hunkHeader(n, header)
	}
	return nil
}

// fileHeader reads the new file's name of a "+++ " line.
func (p *patchReader) fileHeader(n int, name string) error {
	file, err := patchPath(name)
	if err != nil {
		return fmt.Errorf("%s:%d:5: malformed patch: %v", p.name, n, err)
	}
	p.isDiff, p.named, p.file = true, true, nil
	if file == "/dev/null" { // a deleted file gains no line
		return nil
	}
	if p.changed[file] == nil {
		p.changed[file] = &changedLines{lines: make(map[int]bool)}
	}
	p.file = p.changed[file]
	return nil
}

// patchPath is the path of a "+++ " line: git's C-quoted form unquoted,
// a timestamp after a tab dropped, and git's "b/" removed.
func patchPath(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", fmt.Errorf("bad quoted file name %s", s)
		}
		s, _ = strconv.Unquote(q)
	} else {
		s, _, _ = strings.Cut(s, "\t")
	}
	if s == "/dev/null" {
		return s, nil
	}
	s = strings.TrimPrefix(s, "b/")
	if s == "" {
		return "", errors.New(`no file name after "+++ "`)
	}
	return path.Clean(s), nil
}

// hunkHeader reads "@@ -a,b +c,d @@".
func (p *patchReader) hunkHeader(n int, text string) error {
	m := hunkHeaderRE.FindStringSubmatch(text)
	bad := fmt.Errorf("%s:%d:1: malformed patch: bad hunk header %q", p.name, n, text)
	if m == nil {
		return bad
	}
	var num [4]int
	for i, s := range m[1:] {
		num[i] = 1 // an omitted count is 1
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v > maxHunkLine {
			return bad
		}
		num[i] = v
	}
	newStart := num[2]
	if newStart == 0 && num[3] > 0 {
		return bad // lines are numbered from 1
	}
	if !p.named {
		return fmt.Errorf("%s:%d:1: malformed patch: a hunk before any \"+++ \" line names its file", p.name, n)
	}
	p.oldN, p.newN, p.oldLeft, p.newLeft, p.next = num[1], num[3], num[1], num[3], newStart
	if p.oldLeft > 0 || p.newLeft > 0 {
		p.hunk = n
	}
	return nil
}

// hunkLine reads a line of a hunk: context, removed or added.
func (p *patchReader) hunkLine(n int, text string) error {
	kind := byte(' ') // an empty line: context whose space an editor dropped
	if text != "" {
		kind = text[0]
	}
	switch {
	case kind == '\\': // "\ No newline at end of file"
		return nil
	case kind == ' ' && p.oldLeft > 0 && p.newLeft > 0:
		p.oldLeft--
		p.newLeft--
		p.next++
	case kind == '-' && p.oldLeft > 0:
		p.oldLeft--
	case kind == '+' && p.newLeft > 0:
		if p.file != nil {
			p.file.lines[p.next] = true
		}
		p.newLeft--
		p.next++
	default:
		return p.cutShort(n)
	}
	if p.oldLeft == 0 && p.newLeft == 0 {
		p.hunk = 0
	}
	return nil
}

// cutShort is the error of a hunk that ends, at line n, before it has
// the lines its header counts.
func (p *patchReader) cutShort(n int) error {
	return fmt.Errorf("%s:%d:1: malformed patch: the hunk at line %d ends after %d of its %d new lines and %d of its %d old lines",
		p.name, n, p.hunk, p.newN-p.newLeft, p.newN, p.oldN-p.oldLeft, p.oldN)
}
