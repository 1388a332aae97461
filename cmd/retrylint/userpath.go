package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// asOutputError names in err the file the user asked for, output, where
// it names the temporary file written beside it: "-o /missing/dir/x" is
// said as that path, not as /missing/dir/.retrylint-123.
func asOutputError(output string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) || !strings.HasPrefix(filepath.Base(pe.Path), ".retrylint-") {
		return err
	}
	if errors.Is(pe.Err, fs.ErrNotExist) {
		return fmt.Errorf("%s: cannot write it: no such directory %s", output, filepath.Dir(output))
	}
	return fmt.Errorf("%s: cannot write it: %v", output, pe.Err)
}
