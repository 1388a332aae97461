package bad

import (
	"testing"
	"time"
)

// fetchInTest is a retry loop that only --tests reports.
func fetchInTest() error {
	for i := 0; i < 3; i++ {
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errDown
}

func TestFetch(t *testing.T) { _ = fetchInTest }
