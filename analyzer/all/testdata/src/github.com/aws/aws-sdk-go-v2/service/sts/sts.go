// Package sts is a stand-in for the AWS SDK's STS service client.
package sts

import "context"

// Options configures a Client.
type Options struct{ RetryMaxAttempts int }

// Client calls STS; every operation runs through the client's retryer.
type Client struct{ options Options }

// New returns a client.
func New(o Options, optFns ...func(*Options)) *Client { return &Client{options: o} }

// GetCallerIdentityInput is the input of GetCallerIdentity.
type GetCallerIdentityInput struct{}

// GetCallerIdentityOutput is its output.
type GetCallerIdentityOutput struct{ Account *string }

// GetCallerIdentity returns who is calling.
func (c *Client) GetCallerIdentity(ctx context.Context, params *GetCallerIdentityInput, optFns ...func(*Options)) (*GetCallerIdentityOutput, error) {
	return &GetCallerIdentityOutput{}, nil
}
