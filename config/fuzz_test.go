package config

import (
	"errors"
	"testing"
)

// FuzzParse: any bytes give a configuration or an *Error, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"budget: 4\nseverity: {no-jitter: off}\nignore: [vendor/]\nclassifiers: [a.B]\nretry_helpers: [a.C, {func: a.D, attempts: arg 1}]\n",
		"budget: [\n", "- x\n", "a: &a [*a, *a]\n", "severity:\n  ? [a]\n  : b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := Parse("c.yaml", src, Options{})
		var cfgErr *Error
		if err != nil && !errors.As(err, &cfgErr) {
			t.Fatalf("error %v (%T) is not an *Error", err, err)
		}
		if err == nil && cfg == nil {
			t.Fatal("no configuration and no error")
		}
	})
}
