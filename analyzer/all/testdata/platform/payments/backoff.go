package payments

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// fullJitter returns a random duration in [0, min(max, base*2^attempt)].
func fullJitter(base, max time.Duration, attempt int) time.Duration {
	d := max
	if attempt < 31 {
		if exp := base << attempt; exp > 0 && exp < max {
			d = exp
		}
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil {
		return time.Until(t)
	}
	return 0
}
