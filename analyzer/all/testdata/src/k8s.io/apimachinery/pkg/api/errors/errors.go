// Package errors is a minimal stand-in for k8s.io/apimachinery/pkg/api/errors
// v0.37.2: the predicates client code classifies API errors with.
package errors

import "errors"

// StatusError is an error carrying the HTTP status code of an API response.
type StatusError struct {
	Code    int32
	Message string
}

func (e *StatusError) Error() string { return e.Message }

func codeOf(err error) int32 {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

// IsNotFound returns true if the specified error was created by NewNotFound.
func IsNotFound(err error) bool { return codeOf(err) == 404 }

// IsAlreadyExists determines if the err is an error which indicates that a specified resource already exists.
func IsAlreadyExists(err error) bool { return codeOf(err) == 409 }

// IsConflict determines if the err is an error which indicates the provided update conflicts.
func IsConflict(err error) bool { return codeOf(err) == 409 }

// IsInvalid determines if the err is an error which indicates the provided resource is not valid.
func IsInvalid(err error) bool { return codeOf(err) == 422 }

// IsGone is true if the error indicates the requested resource is no longer available.
func IsGone(err error) bool { return codeOf(err) == 410 }

// IsMethodNotSupported determines if the err is an error which indicates the provided action could not be performed.
func IsMethodNotSupported(err error) bool { return codeOf(err) == 405 }

// IsServiceUnavailable is true if the error indicates the underlying service is no longer available.
func IsServiceUnavailable(err error) bool { return codeOf(err) == 503 }

// IsBadRequest determines if err is an error which indicates that the request is invalid.
func IsBadRequest(err error) bool { return codeOf(err) == 400 }

// IsUnauthorized determines if err is an error which indicates that the request is unauthorized.
func IsUnauthorized(err error) bool { return codeOf(err) == 401 }

// IsForbidden determines if err is an error which indicates that the request is forbidden.
func IsForbidden(err error) bool { return codeOf(err) == 403 }

// IsTimeout determines if err is an error which indicates that request times out due to long processing.
func IsTimeout(err error) bool { return codeOf(err) == 504 }

// IsServerTimeout determines if err is an error which indicates that the request needs to be retried by the client.
func IsServerTimeout(err error) bool { return codeOf(err) == 500 }

// IsInternalError determines if err is an error which indicates an internal server error.
func IsInternalError(err error) bool { return codeOf(err) == 500 }

// IsTooManyRequests determines if err is an error which indicates that there are too many requests that the server cannot handle.
func IsTooManyRequests(err error) bool { return codeOf(err) == 429 }
