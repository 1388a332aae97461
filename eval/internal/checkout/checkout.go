// Package checkout brings a public repository at a commit onto disk from
// a bare mirror, for the measurements on real code and manifests.
package checkout

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// commitFile records, in a checkout extracted from a mirror, the commit it
// was extracted at.
const commitFile = ".realcode-commit"

// Ensure makes sure dir holds repository name ("owner/repo") at commit: a
// git work tree whose HEAD is the commit, or a tree extracted earlier (its
// commit in .realcode-commit). A missing one is extracted from the mirror
// mirrors/owner+repo/repo; at another commit, a warning says lines may not
// match.
func Ensure(dir, name, commit, mirrors string, stderr io.Writer) error {
	repo := struct{ name, commit string }{name, commit}
	if _, err := os.Stat(dir); err == nil {
		got, err := checkoutCommit(dir)
		if err != nil {
			return fmt.Errorf("%s: %v", repo.name, err)
		}
		if got != repo.commit {
			fmt.Fprintf(stderr, "warning: %s is at %s, measured at %s; lines may not match\n", dir, got, repo.commit)
		}
		return nil
	}
	if IsModuleVersion(commit) {
		fmt.Fprintf(stderr, "extracting %s@%s from the module proxy\n", repo.name, commit)
		if err := extractModule("github.com/"+name, commit, dir); err != nil {
			return fmt.Errorf("%s: %v", repo.name, err)
		}
		return nil
	}
	if mirrors == "" {
		return fmt.Errorf("%s: no checkout at %s (give -mirrors to extract it)", repo.name, dir)
	}
	gitDir := filepath.Join(mirrors, strings.Replace(repo.name, "/", "+", 1), "repo")
	fmt.Fprintf(stderr, "extracting %s@%s from %s\n", repo.name, repo.commit[:12], gitDir)
	missing, err := extract(gitDir, repo.commit, dir)
	if err != nil {
		return fmt.Errorf("%s: %v", repo.name, err)
	}
	if missing > 0 {
		fmt.Fprintf(stderr, "  %d files absent from the mirror (large files) were skipped\n", missing)
	}
	return nil
}

func checkoutCommit(dir string) (string, error) {
	if b, err := os.ReadFile(filepath.Join(dir, commitFile)); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("%s is neither a git work tree nor an extracted tree (%s)", dir, commitFile)
	}
	return strings.TrimSpace(string(out)), nil
}

// extract writes the tree of commit from the bare repository gitDir into
// dest. Blobs the mirror does not hold (its largest files) are skipped and
// counted.
func extract(gitDir, commit, dest string) (missing int, err error) {
	ls, err := exec.Command("git", "--git-dir", gitDir, "ls-tree", "-r", "-z", commit).Output()
	if err != nil {
		return 0, fmt.Errorf("git ls-tree %s: %v", commit, err)
	}
	cmd := exec.Command("git", "--git-dir", gitDir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		in.Close()
		if werr := cmd.Wait(); err == nil && werr != nil {
			err = werr
		}
	}()
	out := bufio.NewReader(outPipe)
	for _, entry := range bytes.Split(ls, []byte{0}) {
		meta, path, ok := bytes.Cut(entry, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" {
			continue // submodules
		}
		if _, err := fmt.Fprintln(in, f[2]); err != nil {
			return missing, err
		}
		hdr, err := out.ReadString('\n')
		if err != nil {
			return missing, err
		}
		if strings.HasSuffix(hdr, " missing\n") {
			missing++
			continue
		}
		h := strings.Fields(hdr)
		if len(h) != 3 {
			return missing, fmt.Errorf("git cat-file: unexpected header %q", hdr)
		}
		size, err := strconv.Atoi(h[2])
		if err != nil {
			return missing, fmt.Errorf("git cat-file: unexpected header %q", hdr)
		}
		data := make([]byte, size+1) // the content and a newline
		if _, err := io.ReadFull(out, data); err != nil {
			return missing, err
		}
		if err := writeEntry(filepath.Join(dest, filepath.FromSlash(string(path))), f[0], data[:size]); err != nil {
			return missing, err
		}
	}
	return missing, os.WriteFile(filepath.Join(dest, commitFile), []byte(commit+"\n"), 0o644)
}

// IsModuleVersion reports whether a label's commit is a module version
// (v1.22.4): a repository too large for a mirror is measured from its
// module zip, named by the version the module proxy serves.
func IsModuleVersion(commit string) bool {
	return semver.IsValid(commit) && semver.Canonical(commit) == commit
}

// extractModule copies the module zip of module@version, as the module
// proxy serves it, into dest.
func extractModule(module, version, dest string) error {
	out, err := exec.Command("go", "mod", "download", "-json", module+"@"+version).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s@%s: %v", module, version, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return fmt.Errorf("go mod download %s@%s: %v", module, version, err)
	}
	if info.Error != "" || info.Dir == "" {
		return fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	err = filepath.WalkDir(info.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(info.Dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return writeEntry(filepath.Join(dest, rel), "100644", data)
	})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dest, commitFile), []byte(version+"\n"), 0o644)
}

func writeEntry(name, mode string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	switch mode {
	case "120000":
		return os.Symlink(string(data), name)
	case "100755":
		return os.WriteFile(name, data, 0o755)
	}
	return os.WriteFile(name, data, 0o644)
}
