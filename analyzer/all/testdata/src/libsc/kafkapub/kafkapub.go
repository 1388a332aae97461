// Package kafkapub publishes to Kafka through github.com/IBM/sarama,
// whose producer retries a message Producer.Retry.Max (3) times, waiting
// Producer.Retry.Backoff (100ms) between them, the same time every time.
package kafkapub

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/IBM/sarama"
)

// Publisher sends events.
type Publisher struct {
	p sarama.SyncProducer
}

// NewPublisher keeps sarama's defaults: three retries inside the client,
// 100 ms apart, which are sarama's to choose.
func NewPublisher(brokers []string) (*Publisher, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	p, err := sarama.NewSyncProducer(brokers, cfg)
	if err != nil {
		return nil, err
	}
	return &Publisher{p: p}, nil
}

// NewSlowPublisher sets a constant back-off of its own.
func NewSlowPublisher(brokers []string) (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.Max = 5
	cfg.Producer.Retry.Backoff = 2 * time.Second // want `fixed-sleep: sarama.NewSyncProducer waits a constant 2s between attempts`
	return sarama.NewSyncProducer(brokers, cfg)
}

// NewJitteredPublisher backs off exponentially with jitter.
func NewJitteredPublisher(brokers []string) (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.BackoffFunc = func(retries, maxRetries int) time.Duration {
		d := time.Duration(math.Min(float64(5*time.Second), float64(100*time.Millisecond)*math.Pow(2, float64(retries))))
		return d/2 + rand.N(d/2)
	}
	cfg.Metadata.Retry.BackoffFunc = cfg.Producer.Retry.BackoffFunc
	return sarama.NewSyncProducer(brokers, cfg)
}

// NewOneShot sends once: Producer.Retry.Max 0.
func NewOneShot(brokers []string) (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.Max = 0
	return sarama.NewSyncProducer(brokers, cfg)
}

// Publish sends once: the producer's retries are the only layer.
func (p *Publisher) Publish(topic string, value []byte) error {
	_, _, err := p.p.SendMessage(&sarama.ProducerMessage{Topic: topic, Value: sarama.ByteEncoder(value)})
	return err
}

// PublishHard sends again around a producer that already retries:
// (4+1)×(3+1) attempts.
func (p *Publisher) PublishHard(ctx context.Context, topic string, value []byte) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `nested-retry: .*kafkapub.go:\d+.*\(4\+1\)×\(3\+1\) = 20 attempts` `unclassified-retry: `
		if _, _, err = p.p.SendMessage(&sarama.ProducerMessage{Topic: topic, Value: sarama.ByteEncoder(value)}); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)):
		}
	}
	return err
}

// Connect opens a client with a metadata back-off that grows with jitter.
func Connect(brokers []string) (sarama.Client, error) {
	cfg := sarama.NewConfig()
	cfg.Metadata.Retry.BackoffFunc = func(retries, maxRetries int) time.Duration {
		return rand.N(time.Duration(retries+1) * 250 * time.Millisecond)
	}
	return sarama.NewClient(brokers, cfg)
}

// ConnectFixed keeps the metadata retries' constant 250ms.
func ConnectFixed(brokers []string) (sarama.Client, error) {
	cfg := sarama.NewConfig()
	cfg.Metadata.Retry.Max = 5
	cfg.Metadata.Retry.Backoff = 500 * time.Millisecond // want `fixed-sleep: sarama.NewClient waits a constant 500ms between attempts; .*Metadata.Retry.BackoffFunc`
	return sarama.NewClient(brokers, cfg)
}
