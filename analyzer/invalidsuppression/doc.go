// Package invalidsuppression defines an Analyzer that reports
// invalid-suppression findings.
//
// # Analyzer invalidsuppression
//
// invalidsuppression: A retrylint:ignore directive is malformed, names a rule that does not exist, or gives no reason, so it suppresses nothing.
//
// A //retrylint:ignore directive that names a misspelt rule, a rule of the
// topology half, no rule, or no reason, or that misspells the keyword
// itself, suppresses nothing, silently: the finding it was written for
// stays. Each such directive is reported where it is, with the rule it
// probably meant:
//
//	time.Sleep(time.Second) //retrylint:ignore no-jiter
//
// is reported as "no-jiter" is no rule (did you mean no-jitter?) and it
// gives no reason.
//
// The rule's name is invalid-suppression. It cannot itself be suppressed:
// correct the directive instead.
package invalidsuppression
