// Package retryloop defines the shared analysis that finds retry loops and
// describes them for the retrylint rule analyzers.
//
// # Analyzer retryloop
//
// retryloop: find retry loops and record how they wait, what bounds them and
// how they classify failures
//
// A retry loop is a loop whose body performs an operation that can fail
// and whose failure path goes round again, usually after a wait. The
// operation fails through an error, a checked HTTP status or gRPC code, or a
// value without an error from a call that reaches another system: a false
// result (ok = tryLock(ctx)), a nil handle, a Failed field, a list of what
// failed (for len(unconnected) > 0). Two shapes count: the success path
// leaves (give up or succeed), or the success path goes round too but
// without the wait the failure path takes (a reconnect loop: watch, stream,
// subscription, supervisor). The forms recognised are
//
//	for i := 0; i < n; i++ { ... }         // counter or condition
//	for range n { ... }                    // range over an integer
//	for { ... break / return ... }         // infinite loop with an exit
//	for err := op(); err != nil; err = op() { ... }
//	err := op(); for err != nil { wait; err = op() }   // first attempt before the loop
//	retry: ... goto retry                  // a goto back-edge
//	func f(...) { ...; time.Sleep(d); return f(...) }   // self-recursion
//	retry := func(err error) error { wait; return f(...) } // recursion through a closure of f
//	go func() { time.Sleep(d); q.Add(item) }()          // a delayed re-queue
//	go func() { time.Sleep(d); f() }()                  // a re-launch (also go f())
//	go func() { time.Sleep(d); c.kick <- x }()          // waking the function's own loop
//	func (r *R) Read(p []byte) (int, error) { ...; wait; return 0, nil }
//	for range ticker.C { if ping() { return } }          // each round starts with a tick
//
// The last is a Read that, after its source failed, waits and returns no
// bytes and no error: the caller's read loop is the retry loop. An
// attempt may run in a goroutine the round starts and report on channels:
// go c.fetch(ctx, done, errCh) succeeds on done and fails on errCh, go
// func() { errc <- c.dial(ctx) }() hands back dial's error.
// The operation may run in a function literal the loop passes to a call
// (trace(func() { err = op() })). A same-package predicate that holds for a
// nil error (skipRetry(err)) ends the loop on success too.
//
// A retry runner is found from what it does, never from its name: a
// function that, in a loop, runs a function value it was given (directly
// or by handing it to another call) and decides from its result whether to
// run it again, however it waits (a timer, a token channel refilled by a
// goroutine, a helper, an injected delay calculator). Every call of a
// runner with a function literal is a retry loop of its own, at the call:
// its attempts are the runner's (specialised by a constant limit argument;
// a limit of one is no retry), its waits are the runner's, and what the
// literal returns is the classification: an error the runner's predicate
// reads, or a bool beside the error that says "try again" (a bool named
// like success, done or ok makes a poll, not a retry, unless the runner
// goes round on the literal's errors: then true says stop, and every
// error the literal returns with false is retried). The literal may be
// passed through a local variable assigned it once. A runner that only
// takes an error retries every error it is given.
//
// A poll runner calls a condition it is given, func() (done bool, err
// error), stops when it is done or fails, and waits between calls (k8s's
// wait.ExponentialBackoff, often copied into projects): a call of it is a
// retry loop only when its condition answers (false, nil) after an error
// it swallowed, as an adapter does that runs an operation and asks a
// predicate whether its error is worth another try. A poll runner that
// keeps its condition's error only for a message (WaitFor(timeout,
// interval, f)) goes round on it: every error the condition returns with
// false is retried. A function that retries until its context parameter
// ends retries for ever at a call that gives it context.Background().
//
// A runner that takes no context and sleeps between attempts with
// time.Sleep is summarised as such; a call of it where a context is in
// scope cannot be cancelled (sleep-ignores-context at the call). A
// retrier whose every wait is a duration parameter, unchanged, makes each
// call that gives that parameter a constant a fixed-interval retry
// (fixed-sleep at the call), and so does a call of a constructor that
// stores a constant in the field a method's retry loop waits unchanged
// (backoff.New(time.Second) for a Retry that sleeps b.wait). A call through an unexported function-typed
// field (c.refresh(topics)) retries when every value the package gives
// that field retries: a closure with a retry loop, a retrier, or a
// wrapper built around one.
//
// A runner that goes round on every error of the function value it is
// given and reads none of them (a blind runner) leaves the classification
// to its callers: each call is unclassified when its attempt returns every
// error unexamined (return c.Request(host, msg) included), or is given a
// function or method value (retryer.Retry(ctx, c.fetch)); a call whose
// attempt ends the runs on the errors that cannot pass is classified. The
// runner's own loop is then silent when its package calls it; one no call
// of its package gives an attempt keeps the finding. A runner bounded
// only by its context parameter retries for ever at a call that gives it
// a context nobody cancels (context.Background()), unless the attempt
// leaves on a stop state it checks (t.getState() == txnHandlerClosed).
//
// A loop that retries only errnos of the local system (errors.Is(err,
// syscall.ETXTBSY) after an exec) works round a race on this machine: it
// is still a retry loop, but no retry layer of the loops that call it.
//
// A worker that hands a failed item back to the channel it reads it from
// (case id := <-q: ...; if err != nil { q <- id }) runs the operation on
// the same item again: its loop is a retry loop of that item, paced by
// what it waits before the next round.
//
// A loop that waits on every round is still a retry loop when the failure
// picks how long: a pause worked out from a flag set where the attempt
// failed (pause = pacer.Pause(pause, failed)) or from err != nil is the
// failure's own wait, and so is a wait at the top of the loop re-armed with
// a duration the failure path set (interval = time.Second before the next
// round's timer.Reset(interval), where a success sets 5s), or a back-off
// worked out for the failure (delay = backoff(retry) where it failed, a
// poll interval elsewhere), received from a timer a helper makes
// (timer, cancel := timerWithCancel(delay)). Classification is
// per operation: a loop that tells one call's sentinel apart still retries
// every error of another. A runner that asks a predicate parameter
// (isRetryable func(error) bool) whether to go round is unclassified at a
// call that gives it nil or a predicate that never reads the error.
//
// No statement hides a loop: a goto to a label further down the body
// carries its paths there (goto reconnect), a wait helper may be a
// condition (if !sleep(ctx, d) { return }; false when the context or a
// channel it was given ended the wait), an error variable reused by the
// next call keeps the earlier call's success, and a context given a
// deadline per attempt (ctx, cancel = context.WithTimeout(ctx, d)) moves on
// to nothing. An error variable that the next call reuses after the
// attempt failed keeps the attempt's failure: a join that failed is the
// round's failure while the loop asks discovery for a new leader and only
// logs that call's error.
//
// Not retry loops, and only these: loops that wait for a local condition
// (os.Stat, an atomic, a mutex, a ready() callback, a request to this
// machine's server root or health endpoint written as a constant:
// http.Get("http://localhost:%d/healthz"); a sidecar's other paths
// reach what it forwards to), loops that wait alike
// whatever the outcome (ticker daemons, heartbeats, pollers, and a loop
// whose only answer to a probe's failure is to skip using it: if v, err :=
// probe(); err == nil { use(v) } without else or jump), iteration
// over items or alternatives (the operation is given the next element, a
// counter advanced every round, a value the loop advances from itself, or
// a connection accepted this round and what is read from it), and sleeps
// after success, and polls for a state (a done, ready or healthy bool
// beside an error: the error is the failure, not yet is none). An accept loop is a retry loop of its Accept when a
// failed accept waits; it ends with its listener when it leaves on every
// error but a Temporary one or on a closed-resource sentinel (net.ErrClosed,
// errPoolClosed).
//
// A gRPC code compared with OK (status.Code(err) == codes.OK) tells
// whether the call failed, as err != nil does, not how. The text of an
// error classifies when a test reads it, also through a local (msg :=
// err.Error(); strings.Contains(msg, "not found")); a text test for the
// words of a permanent failure (Unauthorized, Forbidden, permission
// denied, access denied) whose path goes round retries that failure.
//
// What bounds a loop: an attempt counter (one counting successes in a row,
// set back on failure, does not), a per-key counter (failures[key] > max),
// a deadline or elapsed-time check, a deadline channel made before the loop,
// the context (ctx.Done(), ctx.Err(), the operation failing with
// context.Canceled or DeadlineExceeded), or a stop channel (also received
// as case _, ok := <-stop: if !ok { return }). The exit may be a bool
// helper that answers true where the context ended (if g.failWait(n, err)
// { return }), a local flag set in a select case on ctx.Done() or a stop
// channel and tested by the loop, or a panic. The context may be a
// variable or a field of the method's receiver; a wait taken only where it
// is nil or its Done() is nil ignores no cancellation.
//
// An attempt limit or a first wait kept in an unexported field that the
// package only ever sets to constants (retries: defaultRetries) is read
// as the largest of them.
//
// A wait's delay is evaluated, through helpers of any package: a back-off
// doubled in a loop whose rounds a growing parameter counts (also through
// a local, power := min(round, limit), which caps it), a zero wait
// (timer.Reset(0)) is no pause, and a wait raised in steps under a
// comparison of itself (if backoff < time.Second { backoff = time.Second })
// grows and is capped there. Findings on a wait stand where its
// duration is given: the time.After, time.NewTimer or timer.Reset call of
// the round, or the receive of a timer or ticker made before the loop.
//
// For each loop the result records the operations whose failure is retried,
// the waits between attempts with where their delay comes from (constant,
// growing with the attempt, randomised, capped), the bound (attempt limit,
// deadline, context), the classification of failures (errors.Is/As, type
// switches, sentinel, status-code and gRPC-code comparisons, predicates), the
// permanent failures it retries, and the context.Context in scope. A test
// of the error whose branches only call something (log it, count it),
// also through nested tests of its text, and both go on to the next
// attempt classifies nothing. An operation given to a library that looks
// at a failure and reports it as success (if !inUse(err) { return nil })
// or tells the library to stop after looking at it (roko's r.Break())
// classifies; a process's exit code (ExitCode() == 128) is no HTTP status.
//
// Calls into known retry libraries (cenkalti/backoff v4 to v7,
// avast/retry-go, sethvargo/go-retry, grafana/dskit backoff, gax-go,
// go-retryablehttp, k8s wait and client-go retry, the AWS SDK retryers,
// gRPC service-config retry policies, failsafe-go retrypolicy,
// go-resiliency retrier, jpillora/backoff, lestrrat-go/backoff v2,
// Rican7/retry, buildkite/roko, Temporal retry policies, resty, go-redis,
// sarama, cloud.google.com/go/storage, and etcd's client, which retries its
// own calls) are read as retry loops too, with the libraries' documented
// defaults (package analyzer/internal/retrylib). A function of the project
// that hands the function value it is given to such a library as the
// operation (a generic retryRPC(ctx, c, op) around backoff.Retry) carries
// how the library is told a failure is permanent: at each of its calls the
// function literal is read as the library reads an operation, so a call
// whose literal retries Unauthenticated through a classifying helper
// (return r, classify(err)) is retry-permanent there, and one whose
// literal returns every error unread is unclassified.
//
// # Facts
//
// For every function that does something a caller's retry loop cares
// about, the analyzer exports a Summary as an object fact, so that a loop
// in one package reads the helpers of another as it reads its own: a wait
// helper (it waits; whether the wait ends with the context), a delay helper
// (the duration it returns grows, is random, is capped, and with which
// parameters it grows), a retrier (how many attempts one call makes, or
// unbounded), a retry wrapper (the parameter whose function value it
// retries), a retry step (it waits where its operation failed and returns:
// the wait of a caller's for { step() }), a predicate over an HTTP status
// or gRPC code (the codes it accepts, also through a package-level list of
// codes it looks the status up in, read by evaluating the predicate for
// each code; a predicate over the failure that answers from its gRPC code,
// isRetriable(err) switching on status.Code(err), is read the same way),
// a predicate that takes the failure
// and never reads it, and a function that can fail with a circuit
// breaker's open error. nested-retry and the topology's app layer read the
// retrier summaries. Calls are resolved by exact type identity
// (typeutil.Callee); the standard library is not summarised. A call of an
// interface method retries when every implementation among the types of
// the interface's own package and of the package being analysed retries
// (a client behind the RPCClient interface its package declares and
// implements); one that does not (a local lock beside a distributed one)
// says nothing of the call. A type that holds a value of the interface is
// a decorator and is not counted, and interfaces of the standard library
// are not followed. The interface's package records what it found on each
// method as a fact, which go vet reads where export data leaves an
// unexported implementation out.
//
// What is still read by name: a circuit breaker's open error (a sentinel or
// type whose name says a circuit or breaker is open, gobreaker.ErrOpenState,
// hystrix.ErrCircuitOpen); a sentinel whose name says a failure that
// cannot pass (ErrUnauthorized, ErrGroupAuthorizationFailed), which a
// path that goes round on it retries as a permanent failure; calls through a breaker (a package or type
// whose name says breaker, circuit or hystrix); a helper that waits but
// takes no duration is a wait only when its name says so (wait, sleep,
// backoff, pause, delay, throttle) or it has the shape sleep(ctx, d); a
// gRPC code is a Code type of a package named codes.
//
// The settings (extra classifiers, retry helpers, test files) come from the
// retryconfig analyzer, which the analyzer requires.
//
// The analyzer reports nothing itself; the rule analyzers require it.
package retryloop
