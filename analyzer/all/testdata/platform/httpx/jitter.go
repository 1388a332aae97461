package httpx

import (
	"bytes"
	"io"
	"math/rand/v2"
	"time"
)

// jitter implements "full jitter": uniform in [0, min(cap, base*2^attempt)).
func jitter(base, cap time.Duration, attempt int) time.Duration {
	ceil := cap
	if attempt < 30 {
		ceil = min(cap, base*time.Duration(1<<attempt))
	}
	if ceil <= 0 {
		return 0
	}
	return rand.N(ceil)
}

// jitterAround spreads d over [d/2, 3d/2).
func jitterAround(d time.Duration) time.Duration {
	return d/2 + rand.N(d)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
