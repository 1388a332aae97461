package withtests

import (
	"testing"
	"time"
)

func TestFlaky(t *testing.T) {
	for i := 0; i < 3; i++ { // want `for-counter op=op bound=attempts classified=false waits=\[time.Sleep\(const\)\]`
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}
