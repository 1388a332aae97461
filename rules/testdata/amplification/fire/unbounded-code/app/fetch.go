// Package fetcher retries the catalog API without a count.
package fetcher

import (
	"context"
	"net/http"
	"time"
)

// Fetch goes round until the catalog answers.
func Fetch() (*http.Response, error) {
	for {
		resp, err := http.Get("https://catalog.example.com/items")
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
}

// Stock goes round until the stock API answers or the context ends: its
// count is not known.
func Stock(ctx context.Context) (*http.Response, error) {
	for ctx.Err() == nil {
		resp, err := http.Get("https://stock.example.com/levels")
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return nil, ctx.Err()
}
