// Package retryloop defines the shared analysis that finds retry loops and
// describes them for the retrylint rule analyzers.
//
// # Analyzer retryloop
//
// retryloop: find retry loops and record how they wait, what bounds them and
// how they classify failures
//
// A retry loop is a loop whose body performs an operation that can fail (a
// call returning an error, or an HTTP request whose status is checked) and
// whose failure path goes round again, usually after a wait, while its
// success path leaves. The forms recognised are
//
//	for i := 0; i < n; i++ { ... }         // counter or condition
//	for range n { ... }                    // range over an integer
//	for { ... break / return ... }         // infinite loop with an exit
//	for err := op(); err != nil; err = op() { ... }
//	retry: ... goto retry                  // a goto back-edge
//	func f(...) { ...; time.Sleep(d); return f(...) }   // self-recursion
//
// Loops that wait for a condition without an error, loops whose success path
// does not leave (queue consumers, ticker daemons, heartbeats), iteration
// over a list of alternatives, and sleeps after success are not retry loops.
//
// For each loop the result records the operations whose failure is retried,
// the waits between attempts with where their delay comes from (constant,
// growing with the attempt, randomised, capped), the bound (attempt limit,
// deadline, context), the classification of failures (errors.Is/As, type
// switches, sentinel, status-code and gRPC-code comparisons, predicates), the
// permanent failures it retries, and the context.Context in scope.
//
// The analyzer reports nothing itself; the rule analyzers require it.
package retryloop
