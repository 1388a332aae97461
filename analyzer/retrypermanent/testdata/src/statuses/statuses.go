// Package statuses decides, for callers elsewhere, which answers are worth
// another attempt.
package statuses

import (
	"net/http"

	"google.golang.org/grpc/codes"
)

// Retryable is true for throttling and server errors.
func Retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// Loose also retries a missing resource and a bad request.
func Loose(code int) bool {
	switch code {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// RetryableResponse reads the status of a response.
func RetryableResponse(resp *http.Response) bool {
	return resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway
}

// Transient is true for the gRPC codes a retry can fix, and NotFound.
func Transient(c codes.Code) bool {
	return c == codes.Unavailable || c == codes.DeadlineExceeded || c == codes.NotFound
}
