// Package kube contains the controller's helpers around the cluster API.
package kube

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// APIError is what the API client returns for non-2xx answers.
type APIError struct {
	Code   int
	Reason string
}

func (e *APIError) Error() string { return fmt.Sprintf("api: %d %s", e.Code, e.Reason) }

var ErrConflict = &APIError{Code: http.StatusConflict, Reason: "Conflict"}

func IsConflict(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Code == http.StatusConflict
}

type Pod struct {
	Name  string
	Phase string
	Ready bool
}

type Deployment struct {
	Name              string
	Replicas          int32
	AvailableReplicas int32
	ResourceVersion   string
}

type API interface {
	GetPod(ctx context.Context, ns, name string) (*Pod, error)
	GetDeployment(ctx context.Context, ns, name string) (*Deployment, error)
	UpdateDeployment(ctx context.Context, ns string, d *Deployment) error
	CreateNamespace(ctx context.Context, name string) error
	Renew(ctx context.Context, lease string) error
	List(ctx context.Context, ns string) ([]Pod, error)
}

// Backoff mirrors the shape of the usual wait.Backoff parameters.
type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}

// Step returns the next wait and advances the backoff.
func (b *Backoff) Step() time.Duration {
	d := b.Duration
	if b.Factor != 0 {
		b.Duration = time.Duration(float64(b.Duration) * b.Factor)
		if b.Cap > 0 && b.Duration > b.Cap {
			b.Duration = b.Cap
		}
	}
	b.Steps--
	if b.Jitter > 0 {
		d += time.Duration(rand.Float64() * b.Jitter * float64(d))
	}
	return d
}

var DefaultRetry = Backoff{Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1, Steps: 5}

// RetryOnConflict runs fn until it stops returning a conflict.
func RetryOnConflict(ctx context.Context, b Backoff, fn func() error) error {
	var err error
	for b.Steps > 0 {
		err = fn()
		if err == nil || !IsConflict(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Step()):
		}
	}
	return err
}

// ScaleDeployment sets the replica count with a read-modify-write cycle.
func ScaleDeployment(ctx context.Context, api API, ns, name string, replicas int32) error {
	return RetryOnConflict(ctx, DefaultRetry, func() error {
		d, err := api.GetDeployment(ctx, ns, name)
		if err != nil {
			return err
		}
		d.Replicas = replicas
		return api.UpdateDeployment(ctx, ns, d)
	})
}

// WaitForPodReady polls until the pod reports Ready.
func WaitForPodReady(ctx context.Context, api API, ns, name string, interval time.Duration) error {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		pod, err := api.GetPod(ctx, ns, name)
		if err != nil {
			return fmt.Errorf("get pod %s/%s: %w", ns, name, err)
		}
		if pod.Phase == "Failed" {
			return fmt.Errorf("pod %s/%s failed", ns, name)
		}
		if pod.Ready {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}

// PollImmediate runs condition every interval until it returns true, an error, or timeout.
func PollImmediate(interval, timeout time.Duration, condition func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := condition()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("timed out waiting for the condition")
		}
		time.Sleep(interval)
	}
}

// WaitForRollout waits until all replicas are available.
func WaitForRollout(api API, ns, name string) error {
	ctx := context.Background()
	return PollImmediate(2*time.Second, 5*time.Minute, func() (bool, error) {
		d, err := api.GetDeployment(ctx, ns, name)
		if err != nil {
			return false, err
		}
		return d.AvailableReplicas == d.Replicas, nil
	})
}

// LeaderElector renews a lease while it holds leadership.
type LeaderElector struct {
	API           API
	Lease         string
	RenewInterval time.Duration
	Log           *slog.Logger
}

// Run renews the lease until ctx is cancelled.
func (le *LeaderElector) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(le.RenewInterval):
		}
		if err := le.API.Renew(ctx, le.Lease); err != nil {
			le.Log.Error("failed to renew lease", "lease", le.Lease, "err", err)
		}
	}
}

// EnsureNamespace creates a namespace, waiting for RBAC to propagate.
func EnsureNamespace(ctx context.Context, api API, name string) error {
	b := Backoff{Duration: 200 * time.Millisecond, Factor: 2, Jitter: 0.5, Steps: 6, Cap: 5 * time.Second}
	var err error
	for b.Steps > 0 { // want `retry-permanent: `
		err = api.CreateNamespace(ctx, name)
		if err == nil {
			return nil
		}
		var ae *APIError
		if !errors.As(err, &ae) {
			return err
		}
		if ae.Code == http.StatusConflict {
			return nil // already exists
		}
		if ae.Code != http.StatusForbidden && ae.Code != http.StatusServiceUnavailable {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Step()):
		}
	}
	return err
}

// ListAll lists pods in every namespace, retrying each namespace a few times.
func ListAll(ctx context.Context, api API, namespaces []string) (map[string][]Pod, error) {
	out := make(map[string][]Pod, len(namespaces))
namespaces:
	for _, ns := range namespaces {
		b := Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 1, Steps: 4, Cap: 2 * time.Second}
		for b.Steps > 0 {
			pods, err := api.List(ctx, ns)
			if err == nil {
				out[ns] = pods
				continue namespaces
			}
			var ae *APIError
			if errors.As(err, &ae) && ae.Code == http.StatusNotFound {
				continue namespaces
			}
			if !errors.As(err, &ae) || (ae.Code != http.StatusTooManyRequests && ae.Code < 500) {
				return nil, err
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(b.Step()):
			}
		}
		return nil, fmt.Errorf("list %s: retries exhausted", ns)
	}
	return out, nil
}

// UpdateWithRetry is used by the legacy reconciler.
func UpdateWithRetry(ctx context.Context, api API, ns string, d *Deployment) error {
	for { // want `unbounded-retry: `
		err := api.UpdateDeployment(ctx, ns, d)
		if err == nil {
			return nil
		}
		if !IsConflict(err) {
			return err
		}
		fresh, gerr := api.GetDeployment(ctx, ns, d.Name)
		if gerr != nil {
			return gerr
		}
		fresh.Replicas = d.Replicas
		d = fresh
		time.Sleep(100 * time.Millisecond) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Resync periodically lists pods and hands them to the reconciler.
func Resync(ctx context.Context, api API, ns string, period time.Duration, reconcile func([]Pod)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pods, err := api.List(ctx, ns)
			if err != nil {
				slog.Warn("resync failed", "ns", ns, "err", err)
				continue
			}
			reconcile(pods)
		}
	}
}
