package forms

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Runtime is a server started by a test harness.
type Runtime struct {
	Client *http.Client
	addr   string
}

func (r *Runtime) URL() string { return "http://" + r.addr }

// HealthCheck asks the server's health endpoint.
func (r *Runtime) HealthCheck(url string) error {
	url += "/health"
	resp, err := r.Client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unexpected response: %d", resp.StatusCode)
	}
	return nil
}

// WaitForServer polls the health endpoint until the server is up: a
// readiness poll, whatever host the URL names.
func (r *Runtime) WaitForServer() error {
	for range 100 {
		if err := r.HealthCheck(r.URL()); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("server not ready in time")
}

// WaitForPeer asks a peer's readiness endpoint directly.
func WaitForPeer(hc *http.Client, base string) error {
	for range 50 {
		resp, err := hc.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("peer not ready")
}

// Publish posts to the same server's API: a retry of the request.
func (r *Runtime) Publish(body string) error {
	for range 5 { // want `unclassified-retry: `
		resp, err := r.Client.Post(r.URL()+"/v1/publish", "text/plain", nil)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: `
	}
	return errors.New("publish failed")
}
