// Package retryconfig defines the Analyzer that carries retrylint's
// settings to the other analyzers.
//
// # Analyzer retryconfig
//
// retryconfig: settings of the retrylint analyzers
//
// It reports nothing. Its flags are the settings of .retrylint.yaml that
// the code rules read, so every driver — retrylint code, go vet
// -vettool, golangci-lint and nogo — gives the analyzers the same
// configuration through one place:
//
//	-retryconfig.classifiers=mypkg.IsTransient,example.com/x/retry.Retryable
//	-retryconfig.retry_helpers=mypkg.Do,example.com/x/retry.Run=arg 2
//	-retryconfig.tests
//
// classifiers are functions whose call on a failure path counts as
// classifying the failure (pkg.Func or import/path.Func, methods as
// pkg.Type.Method); retry_helpers are functions that run an operation with
// retries of their own, each optionally followed by =N (attempts) or
// =arg N (the N-th argument gives them); tests also checks _test.go files.
// The values are those .retrylint.yaml accepts, checked by the same code.
package retryconfig
