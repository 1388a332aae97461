package retryconfig_test

import (
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/config"
)

// parse gives a fresh copy of the analyzer's flags the arguments, as go
// vet does with -retryconfig.NAME=VALUE.
func parse(t *testing.T, args ...string) (*retryconfig.Config, error) {
	t.Helper()
	fs := flag.NewFlagSet("vet", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	retryconfig.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		v := reflect.New(reflect.TypeOf(f.Value).Elem()).Interface().(flag.Value)
		fs.Var(v, f.Name, f.Usage)
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return retryconfig.Of(fs), nil
}

func TestFlagsTakeWhatTheFileTakes(t *testing.T) {
	got, err := parse(t,
		"-classifiers=mypkg.IsTransient, example.com/x/retry.Retryable,mypkg.Client.Retryable",
		"-retry_helpers=mypkg.Do,example.com/x/retry.Run=arg 2,mypkg.Three=3",
		"-tests")
	if err != nil {
		t.Fatal(err)
	}
	want := &retryconfig.Config{
		Classifiers: []string{"mypkg.IsTransient", "example.com/x/retry.Retryable", "mypkg.Client.Retryable"},
		RetryHelpers: []config.RetryHelper{
			{Func: "mypkg.Do"}, {Func: "example.com/x/retry.Run", Attempts: "arg 2"}, {Func: "mypkg.Three", Attempts: "3"},
		},
		Tests: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	// The same settings from a configuration file.
	cfg, err := config.Parse(".retrylint.yaml", []byte(`classifiers: [mypkg.IsTransient, example.com/x/retry.Retryable, mypkg.Client.Retryable]
retry_helpers:
  - mypkg.Do
  - {func: example.com/x/retry.Run, attempts: arg 2}
  - {func: mypkg.Three, attempts: 3}
`), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Classifiers, want.Classifiers) || !reflect.DeepEqual(cfg.RetryHelpers, want.RetryHelpers) {
		t.Errorf("the file gives %v %v, the flags %v %v", cfg.Classifiers, cfg.RetryHelpers, want.Classifiers, want.RetryHelpers)
	}
}

func TestFlagsRefuseWhatTheFileRefuses(t *testing.T) {
	for _, arg := range []string{
		"-classifiers=IsTransient",
		"-classifiers=mypkg.",
		"-retry_helpers=mypkg.Do=0",
		"-retry_helpers=mypkg.Do=arg x",
		"-retry_helpers=mypkg.Do=many",
		"-retry_helpers=Do",
	} {
		if _, err := parse(t, arg); err == nil {
			t.Errorf("%s: accepted", arg)
		}
	}
}

func TestSetRoundTrips(t *testing.T) {
	c := &retryconfig.Config{
		Classifiers:  []string{"a.B"},
		RetryHelpers: []config.RetryHelper{{Func: "a.Do", Attempts: "arg 1"}},
	}
	if err := retryconfig.Set(c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { retryconfig.Set(&retryconfig.Config{}) })
	if got := retryconfig.Of(&retryconfig.Analyzer.Flags); !reflect.DeepEqual(got, c) {
		t.Errorf("Of after Set = %+v, want %+v", got, c)
	}
}
