package awsclient

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// WhoAmI asks again, a constant second apart, although every call already
// runs through the client's retryer (3 attempts by default).
func WhoAmI(ctx context.Context, c *sts.Client) (*sts.GetCallerIdentityOutput, error) {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `nested-retry: .*\(3\+1\)×\(2\+1\) = 12` `unclassified-retry: `
		out, e := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if e == nil {
			return out, nil
		}
		err = e
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: `
		}
	}
	return nil, err
}

// WhoAmIOnce leaves the retries to the client.
func WhoAmIOnce(ctx context.Context, c *sts.Client) (string, error) {
	out, err := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return "", err
	}
	return *out.Account, nil
}

// Accounts asks once per client: a loop over clients, not a retry.
func Accounts(ctx context.Context, cs []*sts.Client) ([]string, error) {
	var out []string
	for _, c := range cs {
		id, err := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			return nil, err
		}
		out = append(out, *id.Account)
	}
	return out, nil
}

// Refresh checks the identity once a minute whatever the outcome: a
// daemon ticker, not a retry.
func Refresh(ctx context.Context, c *sts.Client, report func(error)) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		_, err := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		report(err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
