package topology

import (
	"sort"
	"strings"
)

// Signal names what a caller observes when a callee gives up (SPEC §3).
type Signal string

// Failure signals.
const (
	SigExitNonzero     Signal = "exit-nonzero"
	SigHTTP429         Signal = "http-429"
	SigHTTP5xx         Signal = "http-5xx"
	SigHTTP4xx         Signal = "http-4xx"
	SigConnection      Signal = "connection"
	SigTimeout         Signal = "timeout"
	SigOperationError  Signal = "operation-error"
	SigWorkflowFailed  Signal = "workflow-failed"
	SigNack            Signal = "nack"
	SigAny             Signal = "any" // every signal (an external API in the worst case)
	SigHTTP500         Signal = "http-500"
	SigHTTP502         Signal = "http-502"
	SigHTTP503         Signal = "http-503"
	SigHTTP504         Signal = "http-504"
	sigHTTPPrefix             = "http-"
	sigHTTPClassSuffix        = "xx"
)

// ValidSignal reports whether s is in the SPEC vocabulary: one of the named
// signals, or http-NNN / http-Nxx.
func ValidSignal(s Signal) bool {
	switch s {
	case SigExitNonzero, SigConnection, SigTimeout, SigOperationError,
		SigWorkflowFailed, SigNack, SigAny:
		return true
	}
	str := string(s)
	if !strings.HasPrefix(str, sigHTTPPrefix) || len(str) != len(sigHTTPPrefix)+3 {
		return false
	}
	code := str[len(sigHTTPPrefix):]
	if code[0] < '1' || code[0] > '5' {
		return false
	}
	if code[1:] == sigHTTPClassSuffix {
		return true
	}
	return isDigit(code[1]) && isDigit(code[2])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// httpClass returns "4", "5"… for http-4xx/http-429, and whether s is a
// class (http-Nxx) rather than a code.
func httpClass(s Signal) (class byte, isClass, ok bool) {
	str := string(s)
	if !strings.HasPrefix(str, sigHTTPPrefix) || len(str) != len(sigHTTPPrefix)+3 {
		return 0, false, false
	}
	code := str[len(sigHTTPPrefix):]
	return code[0], code[1:] == sigHTTPClassSuffix, true
}

// SignalMatches reports whether a predicate entry p retries an emitted
// signal s. Matching rules:
//   - equal signals match;
//   - "any" on either side matches every signal;
//   - an HTTP class and a code of that class match both ways: a predicate
//     for http-5xx retries an emitted http-503, and a predicate for
//     http-503 retries an emitted http-5xx (the callee may answer 503; the
//     worst case is assumed);
//   - "nack" (a push handler answered non-2xx) matches every HTTP signal
//     and timeout, and each of those matches nack.
func SignalMatches(p, s Signal) bool {
	if p == s || p == SigAny || s == SigAny {
		return true
	}
	pc, pClass, pok := httpClass(p)
	sc, sClass, sok := httpClass(s)
	if pok && sok {
		return pc == sc && (pClass || sClass)
	}
	if p == SigNack && (sok || s == SigTimeout) || s == SigNack && (pok || p == SigTimeout) {
		return true
	}
	return false
}

// Signals is a set of signals, kept sorted and without duplicates.
type Signals []Signal

// Normalize sorts and deduplicates.
func (ss Signals) Normalize() Signals {
	if len(ss) == 0 {
		return ss
	}
	out := append(Signals(nil), ss...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	j := 0
	for i, s := range out {
		if i == 0 || s != out[j-1] {
			out[j] = s
			j++
		}
	}
	return out[:j]
}

// Has reports whether s is in the set exactly.
func (ss Signals) Has(s Signal) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Matches reports whether some entry of the set (as a predicate) retries s.
func (ss Signals) Matches(s Signal) bool {
	for _, p := range ss {
		if SignalMatches(p, s) {
			return true
		}
	}
	return false
}

// String lists the signals, comma-separated.
func (ss Signals) String() string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

// Transient signals that say "try again later". A policy that retries one of
// them but not the other leaves a transient failure unretried.
var transientPair = Signals{SigHTTP429, SigHTTP503}

// TransientPair returns the two throttling/unavailable signals (429, 503).
func TransientPair() Signals { return transientPair }
