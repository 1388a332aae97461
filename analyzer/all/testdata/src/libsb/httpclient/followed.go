package httpclient

import (
	"context"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// retryAlways is a CheckRetry kept in a package variable: it retries
// whatever comes back.
var retryAlways = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return true, nil
}

// fetchAlways configures the policy of the package variable.
func fetchAlways(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = retryAlways
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `unclassified-retry: client.Do retries every error`
}

// newReportRequest builds a request without a context.
func newReportRequest(url string) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// fetchReport sends the helper's request: its retries wait on after the
// caller gave up.
func fetchReport(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	req, err := newReportRequest(url)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `sleep-ignores-context: client.Do waits between attempts without ctx although it is in scope`
}

// Mailer keeps a client its one constructor configures with jitter.
type Mailer struct {
	http *retryablehttp.Client
}

// NewMailer configures the client where it builds it.
func NewMailer() *Mailer {
	hc := retryablehttp.NewClient()
	hc.RetryMax = 3
	hc.RetryWaitMax = 5 * time.Second
	hc.Backoff = retryablehttp.LinearJitterBackoff
	return &Mailer{http: hc}
}

// Send uses the client of the struct, configured where it is built: its
// wait is not read here again without the fields set there.
func (m *Mailer) Send(ctx context.Context, url string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
