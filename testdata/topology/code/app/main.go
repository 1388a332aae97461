// Command worker runs one job.
package main

import (
	"context"
	"net/http"
	"os"

	"example.com/app/billing"
	"example.com/app/client"
	"example.com/app/job"
	"example.com/app/report"
)

func main() {
	ctx := context.Background()
	if err := job.Run(ctx, &client.Client{HTTP: http.DefaultClient}, &billing.Biller{HTTP: http.DefaultClient}); err != nil {
		os.Exit(1)
	}
	_ = report.Daily(ctx)
	_ = report.Final(ctx)
}
