// Package cli implements the deploy tool's subcommands.
package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

var errBadInput = errors.New("invalid input")

func fetch(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// fetchWithRetry downloads the release manifest.
func fetchWithRetry(url string, retries int) ([]byte, error) {
	b, err := fetch(url)
	if err == nil {
		return b, nil
	}
	if retries == 0 {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "retrying %s: %v\n", url, err)
	time.Sleep(2 * time.Second)           // want `fixed-sleep: `
	return fetchWithRetry(url, retries-1) // want `unclassified-retry: `
}

// dialAgent connects to the local agent socket, waiting for it to come up.
func dialAgent(addr string) net.Conn {
	c, err := net.Dial("unix", addr)
	if err != nil {
		time.Sleep(500 * time.Millisecond) // want `fixed-sleep: `
		return dialAgent(addr)             // want `unbounded-retry: ` `unclassified-retry: `
	}
	return c
}

// downloadArtifact retries timeouts with jittered, capped backoff.
func downloadArtifact(url string, attempt int) ([]byte, error) {
	b, err := fetch(url)
	if err == nil || !isTimeout(err) || attempt >= 4 {
		return b, err
	}
	d := min(time.Duration(1<<attempt)*time.Second, 10*time.Second)
	time.Sleep(rand.N(d))
	return downloadArtifact(url, attempt+1)
}

// UploadAll uploads every file, retrying each one a few times.
func UploadAll(paths []string, upload func(string) error) (failed []string) {
files:
	for _, p := range paths {
		wait := 200 * time.Millisecond
		for attempt := 0; attempt < 4; attempt++ {
			err := upload(p)
			switch {
			case err == nil:
				continue files
			case errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
				failed = append(failed, p)
				continue files
			case !isTimeout(err):
				failed = append(failed, p)
				continue files
			}
			time.Sleep(wait/2 + rand.N(wait/2))
			wait = min(wait*2, 5*time.Second)
		}
		failed = append(failed, p)
	}
	return failed
}

// checkVersion asks the server for its version, doubling the wait each time.
func checkVersion(url string) (string, error) {
	var err error
	for i := range 5 {
		var b []byte
		if b, err = fetch(url); err == nil {
			return strings.TrimSpace(string(b)), nil
		}
		if !isTimeout(err) {
			return "", err
		}
		time.Sleep(time.Duration(1<<i) * time.Second) // want `no-jitter: `
	}
	return "", err
}

// prompt reads a line until the user gives a non-empty answer.
func prompt(r *bufio.Reader, w io.Writer, question string) (string, error) {
	for {
		fmt.Fprint(w, question+" ")
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		if s := strings.TrimSpace(line); s != "" {
			return s, nil
		}
		fmt.Fprintln(w, errBadInput)
	}
}

// spinner prints progress dots until done is closed.
func spinner(w io.Writer, done <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			fmt.Fprintln(w)
			return
		case <-t.C:
			fmt.Fprint(w, ".")
		}
	}
}

// deployRelease pushes a release; it retries transient registry failures.
func deployRelease(push func() error) error {
	attempt := 0
	wait := 250 * time.Millisecond
again:
	err := push()
	if err != nil && isTimeout(err) && attempt < 5 {
		attempt++
		time.Sleep(rand.N(wait) + wait/4)
		wait = min(wait*2, 8*time.Second)
		goto again
	}
	return err
}

// tailLogs follows the remote log endpoint, reconnecting on failure.
func tailLogs(ctx context.Context, url string, w io.Writer) error {
	for attempt := 0; ; attempt++ { // want `unclassified-retry: `
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, err = io.Copy(w, resp.Body)
			resp.Body.Close()
			if err == nil {
				return nil
			}
		}
		fmt.Fprintf(os.Stderr, "log stream dropped: %v\n", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * time.Second): // want `no-jitter: ` `no-cap: `
		}
	}
}

// waitForPort polls until a TCP port accepts connections or the budget is spent.
func waitForPort(ctx context.Context, addr string, budget time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var d net.Dialer
	wait := 100 * time.Millisecond
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return c.Close()
		}
		var oe *net.OpError
		if !errors.As(err, &oe) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not reachable: %w", addr, err)
		case <-time.After(wait + rand.N(wait)):
		}
		wait = min(wait*2, 2*time.Second)
	}
}
