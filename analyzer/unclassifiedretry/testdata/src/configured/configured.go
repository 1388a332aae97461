// Package configured classifies failures through a function that looks at
// the response only; .retrylint.yaml names it as a classifier.
package configured

import (
	"errors"
	"net/http"
	"time"
)

type Result struct{ Code int }

func send() (Result, error) { return Result{}, nil }

// shouldRetry takes no error: only the configuration makes it a classifier.
func shouldRetry(r Result) bool { return r.Code == 503 }

func Send() error {
	for i := 0; i < 3; i++ {
		r, err := send()
		if err == nil {
			return nil
		}
		if !shouldRetry(r) {
			return err
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("gave up")
}

func notAClassifier(c *http.Client) bool { return c != nil }

func SendAny(c *http.Client) error {
	for i := 0; i < 3; i++ { // want `unclassified-retry`
		_, err := send()
		if err == nil {
			return nil
		}
		if !notAClassifier(c) {
			return err
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("gave up")
}
