// Package sarama is a stand-in for github.com/IBM/sarama v1.61.1: the
// signatures the libsc packages use, with NewConfig's retry defaults
// (config.go:560-611).
package sarama

import "time"

// Config is the configuration of clients, producers and consumers.
type Config struct {
	Metadata struct {
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries, maxRetries int) time.Duration
		}
		RefreshFrequency time.Duration
	}
	Producer struct {
		RequiredAcks RequiredAcks
		Timeout      time.Duration
		Idempotent   bool
		Return       struct {
			Successes bool
			Errors    bool
		}
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries, maxRetries int) time.Duration
		}
	}
	ClientID string
}

type RequiredAcks int16

const (
	NoResponse   RequiredAcks = 0
	WaitForLocal RequiredAcks = 1
	WaitForAll   RequiredAcks = -1
)

func NewConfig() *Config {
	c := &Config{}
	c.Metadata.Retry.Max = 3
	c.Metadata.Retry.Backoff = 250 * time.Millisecond
	c.Producer.Retry.Max = 3
	c.Producer.Retry.Backoff = 100 * time.Millisecond
	c.Producer.Return.Errors = true
	return c
}

type Encoder interface {
	Encode() ([]byte, error)
	Length() int
}

type StringEncoder string

func (s StringEncoder) Encode() ([]byte, error) { return []byte(s), nil }
func (s StringEncoder) Length() int             { return len(s) }

type ByteEncoder []byte

func (b ByteEncoder) Encode() ([]byte, error) { return b, nil }
func (b ByteEncoder) Length() int             { return len(b) }

type ProducerMessage struct {
	Topic string
	Key   Encoder
	Value Encoder
}

// SyncProducer publishes messages, waiting for each to be acknowledged.
type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
	SendMessages(msgs []*ProducerMessage) error
	Close() error
}

type syncProducer struct{ conf *Config }

func (p *syncProducer) SendMessage(msg *ProducerMessage) (int32, int64, error) { return 0, 0, nil }
func (p *syncProducer) SendMessages(msgs []*ProducerMessage) error             { return nil }
func (p *syncProducer) Close() error                                           { return nil }

func NewSyncProducer(addrs []string, config *Config) (SyncProducer, error) {
	return &syncProducer{conf: config}, nil
}

// Client is a connection to the cluster.
type Client interface {
	Close() error
}

type client struct{ conf *Config }

func (c *client) Close() error { return nil }

func NewClient(addrs []string, conf *Config) (Client, error) { return &client{conf: conf}, nil }
