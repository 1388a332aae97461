// Package kube is controller code written against k8s.io/apimachinery's
// wait package and client-go's util/retry.
package kube

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// Pod is the part of a pod the controller reads.
type Pod struct {
	Name  string
	Phase string
	Ready bool
}

// PodClient is the typed client the controller uses.
type PodClient interface {
	Get(ctx context.Context, name string) (*Pod, error)
	Update(ctx context.Context, pod *Pod) (*Pod, error)
	Create(ctx context.Context, pod *Pod) (*Pod, error)
	Delete(ctx context.Context, name string) error
}

// Controller reconciles pods.
type Controller struct {
	pods    PodClient
	backoff wait.Backoff
}

// Label updates a pod, retrying conflicts as client-go recommends.
func (c *Controller) Label(ctx context.Context, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod, err := c.pods.Get(ctx, name)
		if err != nil {
			return err
		}
		pod.Ready = true
		_, err = c.pods.Update(ctx, pod)
		return err
	})
}

// Annotate retries conflicts with client-go's growing back-off.
func (c *Controller) Annotate(ctx context.Context, name string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		pod, err := c.pods.Get(ctx, name)
		if err != nil {
			return err
		}
		_, err = c.pods.Update(ctx, pod)
		return err
	})
}

// Throttled retries what the API server sheds.
func (c *Controller) Throttled(ctx context.Context, pod *Pod) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsTooManyRequests, func() error {
		_, err := c.pods.Create(ctx, pod)
		return err
	})
}

// Transient retries server-side failures, named by a literal predicate.
func (c *Controller) Transient(ctx context.Context, pod *Pod) error {
	transient := func(err error) bool {
		return apierrors.IsServerTimeout(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsTooManyRequests(err)
	}
	return retry.OnError(retry.DefaultBackoff, transient, func() error {
		_, err := c.pods.Update(ctx, pod)
		return err
	})
}

// Everything retries any error at all.
func (c *Controller) Everything(ctx context.Context, pod *Pod) error {
	return retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, func() error { // want `unclassified-retry: retry.OnError retries every error`
		_, err := c.pods.Update(ctx, pod)
		return err
	})
}

// Forbidden retries authorisation failures, which no retry fixes.
func (c *Controller) Forbidden(ctx context.Context, pod *Pod) error {
	return retry.OnError(retry.DefaultRetry, apierrors.IsForbidden, func() error { // want `retry-permanent: retry.OnError retries HTTP 403, which cannot succeed on retry; .*; drop them from OnError's retriable`
		_, err := c.pods.Create(ctx, pod)
		return err
	})
}

// Missing retries NotFound next to timeouts.
func (c *Controller) Missing(ctx context.Context, name string) (*Pod, error) {
	var pod *Pod
	err := retry.OnError(retry.DefaultBackoff, func(err error) bool { // want `retry-permanent: retry.OnError retries HTTP 404, which cannot succeed on retry`
		return apierrors.IsNotFound(err) || apierrors.IsServerTimeout(err)
	}, func() error {
		var err error
		pod, err = c.pods.Get(ctx, name)
		return err
	})
	return pod, err
}

// WaitRunning polls readiness: the condition never goes round on a failure.
func (c *Controller) WaitRunning(ctx context.Context, name string) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		pod, err := c.pods.Get(ctx, name)
		if err != nil {
			return false, err
		}
		return pod.Phase == "Running", nil
	})
}

// WaitGone polls until the pod is deleted.
func (c *Controller) WaitGone(ctx context.Context, name string) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, false, func(ctx context.Context) (bool, error) {
		_, err := c.pods.Get(ctx, name)
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

// WaitCreated polls until the pod exists: going round on NotFound is
// waiting for it to appear.
func (c *Controller) WaitCreated(ctx context.Context, name string) (*Pod, error) {
	var pod *Pod
	err := wait.PollUntilContextCancel(ctx, 500*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		p, err := c.pods.Get(ctx, name)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		pod = p
		return true, nil
	})
	return pod, err
}

// EnsureCreated retries the create on any error every two seconds.
func (c *Controller) EnsureCreated(ctx context.Context, pod *Pod) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, func(ctx context.Context) (bool, error) { // want `fixed-sleep: wait.PollUntilContextTimeout waits a constant 2s between attempts` `unclassified-retry: wait.PollUntilContextTimeout retries every error`
		if _, err := c.pods.Create(ctx, pod); err != nil {
			log.Printf("create %s: %v", pod.Name, err)
			return false, nil
		}
		return true, nil
	})
}

// DeleteForever retries a delete for ever.
func (c *Controller) DeleteForever(name string) error {
	return wait.PollImmediateInfinite(5*time.Second, func() (bool, error) { // want `fixed-sleep: wait.PollImmediateInfinite waits a constant 5s between attempts` `unbounded-retry: wait.PollImmediateInfinite has no attempt limit, deadline or context exit` `unclassified-retry: wait.PollImmediateInfinite retries every error`
		if err := c.pods.Delete(context.Background(), name); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// errTransient marks failures the caller may retry.
var errTransient = errors.New("transient")

// Sync backs off exponentially without jitter on transient failures.
func (c *Controller) Sync(pod *Pod) error {
	backoff := wait.Backoff{ // want `no-jitter: retry wait \(wait.Backoff\{.*\}\) grows with the attempt but nothing random enters it; .*; set Jitter in the wait.Backoff`
		Duration: 100 * time.Millisecond,
		Factor:   2,
		Steps:    6,
	}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		_, err := c.pods.Update(context.Background(), pod)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, errTransient):
			return false, nil
		default:
			return false, err
		}
	})
}

// SyncJittered is Sync with jitter and a cap.
func (c *Controller) SyncJittered(ctx context.Context, pod *Pod) error {
	backoff := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.5, Steps: 8, Cap: 10 * time.Second}
	return wait.ExponentialBackoffWithContext(ctx, backoff, func(ctx context.Context) (bool, error) {
		_, err := c.pods.Update(ctx, pod)
		if err == nil {
			return true, nil
		}
		if apierrors.IsConflict(err) || apierrors.IsServerTimeout(err) {
			return false, nil
		}
		return false, err
	})
}

// Reconnect grows a jittered wait for thirty steps without a cap.
func (c *Controller) Reconnect(ctx context.Context, name string) error {
	b := wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.1, Steps: 30} // want `no-cap: retry wait \(wait.Backoff\{.*\}\) grows with the attempt without an upper bound; .*; set Cap in the wait.Backoff`
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) {
		if _, err := c.pods.Get(ctx, name); err != nil {
			if apierrors.IsUnauthorized(err) {
				return false, err
			}
			return false, nil
		}
		return true, nil
	})
}

// Steady waits the same 3s before each of ten attempts.
func (c *Controller) Steady(ctx context.Context, pod *Pod) error {
	b := wait.Backoff{Duration: 3 * time.Second, Factor: 1, Steps: 10} // want `fixed-sleep: wait.ExponentialBackoffWithContext waits a constant 3s between attempts`
	b.Steps = 12
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) { // want `unclassified-retry: wait.ExponentialBackoffWithContext retries every error`
		_, err := c.pods.Create(ctx, pod)
		if err != nil {
			return false, nil
		}
		return true, nil
	})
}

// Configured takes its back-off from the controller's settings.
func (c *Controller) Configured(ctx context.Context, pod *Pod) error {
	return wait.ExponentialBackoffWithContext(ctx, c.backoff, func(ctx context.Context) (bool, error) {
		_, err := c.pods.Update(ctx, pod)
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// Run resyncs every 30s until stopped: periodic, not a retry.
func (c *Controller) Run(stop <-chan struct{}) {
	wait.Until(func() {
		if err := c.resync(); err != nil {
			log.Printf("resync: %v", err)
		}
	}, 30*time.Second, stop)
}

// RunJittered is Run with jitter.
func (c *Controller) RunJittered(ctx context.Context) {
	wait.JitterUntilWithContext(ctx, func(ctx context.Context) {
		if err := c.resync(); err != nil {
			log.Printf("resync: %v", err)
		}
	}, 30*time.Second, 0.2, true)
}

func (c *Controller) resync() error { return fmt.Errorf("not implemented") }

// Retrying wraps a retrying call in a hand loop.
func (c *Controller) Retrying(ctx context.Context, name string) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested-retry: retry loop retries c.Label, which retries too \((libsb/)?kube/kube.go:\d+\): attempts multiply, \(2\+1\)×\(4\+1\) = 15 attempts`
		err = c.Label(ctx, name)
		if err == nil || apierrors.IsNotFound(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait.Jitter(time.Second, 1.0)):
		}
	}
	return err
}

// backoffPolicy is the controller's shared back-off, without jitter.
var backoffPolicy = wait.Backoff{Duration: 200 * time.Millisecond, Factor: 3, Steps: 5, Cap: 5 * time.Second} // want `no-jitter: retry wait \(wait.Backoff\{.*\}\) grows with the attempt but nothing random enters it`

// Evict retries evictions the API server throttles, with the shared policy.
func (c *Controller) Evict(name string) error {
	return wait.ExponentialBackoff(backoffPolicy, func() (bool, error) {
		err := c.pods.Delete(context.Background(), name)
		if apierrors.IsTooManyRequests(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// Recreate retries a create with the deprecated poll, which ignores ctx.
func (c *Controller) Recreate(ctx context.Context, pod *Pod) error {
	return wait.PollImmediate(time.Second, 30*time.Second, func() (bool, error) { // want `fixed-sleep: wait.PollImmediate waits a constant 1s` `unclassified-retry: wait.PollImmediate retries every error` `sleep-ignores-context: wait.PollImmediate waits between attempts without ctx although it is in scope; .*; poll with wait.PollUntilContextTimeout\(ctx, ...\)`
		_, err := c.pods.Create(ctx, pod)
		if err != nil {
			log.Printf("create: %v", err)
			return false, nil
		}
		return true, nil
	})
}

// Patch retries conflicts in a condition that names them in a switch.
func (c *Controller) Patch(ctx context.Context, pod *Pod) error {
	b := wait.Backoff{Duration: 50 * time.Millisecond, Factor: 2, Jitter: 1, Steps: 5}
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) {
		_, err := c.pods.Update(ctx, pod)
		switch {
		case err == nil:
			return true, nil
		case apierrors.IsConflict(err):
			return false, nil
		default:
			return false, err
		}
	})
}

// WaitSocket polls for a local socket file: readiness, not a retry.
func WaitSocket(path string) error {
	return wait.PollImmediate(100*time.Millisecond, 10*time.Second, func() (bool, error) {
		if _, err := os.Stat(path); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// UpdateWithRetry reads the pod, lets mutate change it and writes it back,
// again every second while the write conflicts: the Get's failure ends
// the poll, the Update's conflict goes round at a constant pace.
func (c *Controller) UpdateWithRetry(ctx context.Context, name string, mutate func(*Pod) bool) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) { // want `fixed-sleep: wait.PollUntilContextCancel waits a constant 1s between attempts`
		pod, err := c.pods.Get(ctx, name)
		if err != nil {
			return false, err
		}
		if mutate(pod) {
			_, updateErr := c.pods.Update(ctx, pod)
			if updateErr != nil {
				if apierrors.IsConflict(updateErr) {
					return false, nil
				}
				return false, updateErr
			}
		}
		return true, nil
	})
}

// UpdateOnce reads and writes the pod once a second until the write
// lands, but every failure, of either call, ends the poll: it polls for
// mutate's consent, not for a failure to pass.
func (c *Controller) UpdateOnce(ctx context.Context, name string, mutate func(*Pod) bool) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		pod, err := c.pods.Get(ctx, name)
		if err != nil {
			return false, err
		}
		if !mutate(pod) {
			return false, nil
		}
		if _, updateErr := c.pods.Update(ctx, pod); updateErr != nil {
			return false, updateErr
		}
		return true, nil
	})
}

// WaitUpdated waits, once a second, for the pod to appear and then
// updates it: only the Get's NotFound goes round, a readiness wait.
func (c *Controller) WaitUpdated(ctx context.Context, name string) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		pod, err := c.pods.Get(ctx, name)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if _, updateErr := c.pods.Update(ctx, pod); updateErr != nil {
			return false, updateErr
		}
		return true, nil
	})
}

// WaitForwarded waits for a port-forward to accept connections: the
// dial is a probe, closed at once, a wait for a port, not a retry.
func WaitForwarded(ctx context.Context, addr string) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(ctx, "tcp", addr)
		if err != nil {
			return false, nil
		}
		conn.Close()
		return true, nil
	})
}

// SendWhenUp dials and sends on the connection, again every second on
// any failure: the dial is the work, retried at a constant pace.
func SendWhenUp(ctx context.Context, addr string, msg []byte) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) { // want `fixed-sleep: wait.PollUntilContextTimeout waits a constant 1s` `unclassified-retry: wait.PollUntilContextTimeout retries every error`
		conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(ctx, "tcp", addr)
		if err != nil {
			return false, nil
		}
		defer conn.Close()
		if _, err := conn.Write(msg); err != nil {
			return false, nil
		}
		return true, nil
	})
}

var ErrNotListening = errors.New("server is not listening yet")

type server struct{ port int }

func (s *server) Port() (int, error) {
	if s.port == 0 {
		return 0, ErrNotListening
	}
	return s.port, nil
}

// WaitListening waits for a server of this process to pick its port:
// only "not listening yet" goes round.
func WaitListening(ctx context.Context, s *server) (int, error) {
	var port int
	err := wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		p, err := s.Port()
		if err != nil {
			if errors.Is(err, ErrNotListening) {
				return false, nil
			}
			return false, err
		}
		port = p
		return true, nil
	})
	return port, err
}

func isRepositoryNotProvisioned(err error) bool {
	return err != nil && err.Error() == "not provisioned"
}

func isTransient(err error) bool { return err != nil && err.Error() == "transient" }

// WaitProvisioned waits for a repository to be provisioned: not yet
// provisioned goes round, any other failure ends the wait.
func (c *Controller) WaitProvisioned(ctx context.Context, name string) error {
	return wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := c.pods.Get(ctx, name)
		if err == nil {
			return true, nil
		} else if isRepositoryNotProvisioned(err) {
			return false, nil
		}
		return false, err
	})
}

// GetTransient retries a Get on a transient failure at a constant pace.
func (c *Controller) GetTransient(ctx context.Context, name string) error {
	return wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) { // want `fixed-sleep: wait.PollUntilContextTimeout waits a constant 500ms`
		_, err := c.pods.Get(ctx, name)
		if err == nil {
			return true, nil
		} else if isTransient(err) {
			return false, nil
		}
		return false, err
	})
}

// WaitPodRunning waits for the pod to run, keeping why it is not yet in a
// variable of its own for the message: only NotFound and a pod not yet
// running go round, any other failure ends the wait.
func (c *Controller) WaitPodRunning(ctx context.Context, name string) error {
	var lastError error
	err := wait.PollUntilContextTimeout(ctx, 5*time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		pod, err := c.pods.Get(ctx, name)
		if err != nil && !apierrors.IsNotFound(err) {
			return false, err
		}
		if err != nil {
			lastError = fmt.Errorf("pod not found")
			return false, nil
		}
		if pod.Name == "" {
			lastError = fmt.Errorf("pod is not running yet")
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("%w: %v", err, lastError)
	}
	return nil
}
