package forms

import (
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// Fetch reads a failed answer's body for the log and closes it before it
// waits: neither is the attempt, and the 4xx answers are still retried.
func Fetch(client *http.Client, req *http.Request) ([]byte, error) {
	var resp *http.Response
	var err error
	ok := false
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 400`
		resp, err = client.Do(req)
		if err != nil {
			time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
			continue
		}
		if resp.StatusCode/100 != 2 {
			buf, _ := io.ReadAll(resp.Body)
			log.Printf("answer %d: %s", resp.StatusCode, buf)
			if err := resp.Body.Close(); err != nil {
				log.Printf("close: %v", err)
			}
			time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
			continue
		}
		ok = true
		break
	}
	if !ok {
		return nil, fmt.Errorf("out of attempts: %v", err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// FetchTransient retries 429 and 5xx answers only, reading them the same
// way.
func FetchTransient(client *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			return resp, nil
		}
		buf, _ := io.ReadAll(resp.Body)
		log.Printf("answer %d: %s", resp.StatusCode, buf)
		if err := resp.Body.Close(); err != nil {
			log.Printf("close: %v", err)
		}
		time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
	}
	return nil, fmt.Errorf("out of attempts")
}

// ReadBody retries reading a body that failed to arrive: the read is the
// attempt here.
func ReadBody(open func() (io.ReadCloser, error)) ([]byte, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `unclassified-retry: `
		rc, err := open()
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			return body, nil
		}
		time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
	}
	return nil, fmt.Errorf("out of attempts")
}

// Push sends a batch; send reports 0 for a failure without an answer.
// It retries that, 429 and 5xx, and gives up on any other status.
func Push(send func(batch []byte) (int, error), batch []byte) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		var status int
		status, err = send(batch)
		if err == nil {
			return nil
		}
		if status > 0 && !rateLimited(status) && status/100 != 5 {
			break
		}
		time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
	}
	return err
}

// PushAll retries every status but 200.
func PushAll(send func(batch []byte) (int, error), batch []byte) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 400`
		var status int
		status, err = send(batch)
		if err == nil && status == http.StatusOK {
			return nil
		}
		time.Sleep(rand.N(min(time.Second<<attempt, 5*time.Second)))
	}
	return err
}

func rateLimited(status int) bool { return status == http.StatusTooManyRequests }
