package report

import (
	"testing"

	"github.com/retrylint/retrylint/model"
)

// FuzzReadBaseline: any bytes give a baseline or an error, never a panic.
func FuzzReadBaseline(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"fingerprint": "ab", "rule": "r", "file": "f", "message": "m"}]}`))
	f.Add([]byte(`{"version": 1, "findings": [}`))
	f.Add([]byte(`{"version": 2, "findings": [{"rule": "fixed-sleep", "file": "a.go", "function": "(*C).Get", "loop": "for { }", "message": "m"}]}`))
	f.Add([]byte(`{"version": 2, "findings": [{"rule": "amplification", "file": "job.yaml", "component": "job", "pipeline": "envs/prod"}]}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := ReadBaseline("b.json", src)
		if err == nil {
			b.Filter([]model.Finding{{Rule: "r", File: "f", Message: "m"}})
		}
	})
}
