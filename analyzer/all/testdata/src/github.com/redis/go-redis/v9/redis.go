// Package redis is a stand-in for github.com/redis/go-redis/v9 v9.23.0:
// the signatures the libsc packages use. Commands are methods of the
// unexported cmdable embedded in Client, as in the library
// (commands.go, string_commands.go, redis.go).
package redis

import (
	"context"
	"time"
)

// RedisError is an error the server replied with.
type RedisError string

func (e RedisError) Error() string { return string(e) }

// Nil is the reply to a missing key.
const Nil = RedisError("redis: nil")

// Options configure a Client (options.go).
type Options struct {
	Addr            string
	Password        string
	DB              int
	MaxRetries      int
	MinRetryBackoff time.Duration
	MaxRetryBackoff time.Duration
	DialTimeout     time.Duration
	ReadTimeout     time.Duration
}

type Cmder interface{ Err() error }

type baseCmd struct{ err error }

func (cmd *baseCmd) Err() error { return cmd.err }

type StringCmd struct{ baseCmd }

func (cmd *StringCmd) Val() string             { return "" }
func (cmd *StringCmd) Result() (string, error) { return "", cmd.err }

type StatusCmd struct{ baseCmd }

func (cmd *StatusCmd) Result() (string, error) { return "", cmd.err }

type IntCmd struct{ baseCmd }

func (cmd *IntCmd) Result() (int64, error) { return 0, cmd.err }

type Cmd struct{ baseCmd }

func (cmd *Cmd) Result() (interface{}, error) { return nil, cmd.err }

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Ping(ctx context.Context) *StatusCmd { return &StatusCmd{} }
func (c cmdable) Get(ctx context.Context, key string) *StringCmd {
	return &StringCmd{}
}
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) Incr(ctx context.Context, key string) *IntCmd    { return &IntCmd{} }
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd { return &IntCmd{} }

type baseClient struct{ opt *Options }

// Client is a Redis client.
type Client struct {
	*baseClient
	cmdable
}

func NewClient(opt *Options) *Client {
	c := &Client{baseClient: &baseClient{opt: opt}}
	c.cmdable = func(ctx context.Context, cmd Cmder) error { return nil }
	return c
}

func (c *Client) Do(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }
func (c *Client) Process(ctx context.Context, cmd Cmder) error     { return nil }
func (c *Client) Close() error                                     { return nil }
