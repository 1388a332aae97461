package failure

import (
	"regexp"
	"slices"
	"testing"
)

// TestBreakerOpen: the rule for a breaker's open error accepts what the
// expression the retry-loop model matched names with accepts, and nothing
// else.
func TestPermanentName(t *testing.T) {
	for name, want := range map[string]bool{
		"ErrUnauthorized": true, "ErrGroupAuthorizationFailed": true, "TopicAuthorizationFailed": true,
		"ErrPermissionDenied": true, "errForbidden": true, "ErrInvalidCredentials": true,
		"ErrTimeout": false, "ErrNotLeader": false, "ErrAuthorizationPending": false, "ErrClosed": false,
	} {
		if got := PermanentName(name); got != want {
			t.Errorf("PermanentName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestStatusName(t *testing.T) {
	for name, want := range map[string]bool{
		"status": true, "StatusCode": true, "code": true, "HTTPCode": true, "httpStatus": true,
		"ExitCode": false, "exitStatus": false, "count": false, "n": false, "attempt": false, "": false,
	} {
		if got := StatusName(name); got != want {
			t.Errorf("StatusName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestBreakerOpen(t *testing.T) {
	re := regexp.MustCompile(`(?i)(circuit|breaker).*open|open.*(circuit|breaker)|^ErrOpenState$`)
	for _, name := range []string{
		"ErrOpenState", "erropenstate", "ErrCircuitOpen", "ErrBreakerOpen", "CircuitOpenError",
		"*CircuitOpenError", "OpenBreakerError", "ErrOpen", "ErrOpenStateX", "ErrTooManyRequests",
		"ErrCircuitClosed", "BreakerHalfOpen", "errCircuitBreakerIsOpen", "Open", "circuit", "",
	} {
		if got, want := BreakerOpen(name), re.MatchString(name); got != want {
			t.Errorf("BreakerOpen(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestPermanentText: the words of a permanent failure are those the
// retry-loop model matched an error's text with.
func TestPermanentText(t *testing.T) {
	re := regexp.MustCompile(`(?i)^(unauthori[sz]ed|unauthenticated|forbidden|permission ?denied|access ?denied)$`)
	for _, text := range []string{
		"Unauthorized", "unauthorised", "UNAUTHENTICATED", "Forbidden", "permission denied",
		"PermissionDenied", "access denied", "AccessDenied", "access  denied", "not found",
		"invalid argument", "forbidden!", "403 Forbidden", "",
	} {
		if got, want := PermanentText(text), re.MatchString(text); got != want {
			t.Errorf("PermanentText(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestPermanentTables(t *testing.T) {
	if got, want := AllHTTP().Permanent(), []int{400, 401, 403, 404, 405, 410, 422}; !slices.Equal(got, want) {
		t.Errorf("permanent statuses %v, want %v", got, want)
	}
	var names []string
	for _, c := range AllGRPC().Permanent() {
		names = append(names, GRPCName(c))
	}
	if want := []string{"InvalidArgument", "NotFound", "PermissionDenied", "Unauthenticated"}; !slices.Equal(names, want) {
		t.Errorf("permanent gRPC codes %v, want %v", names, want)
	}
	for c := 0; c < GRPCCodes; c++ {
		if GRPCName(c) == "" {
			t.Errorf("code %d has no name", c)
		}
	}
	if c, ok := GRPCConfigCode("UNAVAILABLE"); !ok || GRPCName(c) != "Unavailable" {
		t.Errorf("UNAVAILABLE read as %d, %v", c, ok)
	}
	if got := DescribeHTTP([]int{400, 401}); got != "HTTP 400, 401" {
		t.Errorf("DescribeHTTP = %q", got)
	}
	if got := DescribeGRPC(5); got != "gRPC NotFound" {
		t.Errorf("DescribeGRPC = %q", got)
	}
}

func TestSets(t *testing.T) {
	ge500 := AllHTTP().Restrict(func(c int) bool { return c >= 500 })
	is404 := AllHTTP().Restrict(func(c int) bool { return c == 404 })
	if s := ge500.Or(is404); !s.Narrowed || !s.Has(404) || !s.Has(503) || s.Has(400) {
		t.Errorf("500 and up or 404: %+v", s)
	}
	if s := ge500.Or(AllHTTP()); s.Narrowed || !s.Has(400) {
		t.Errorf("a side that checks nothing lets every status through: %+v", s)
	}
	if s := ge500.Not(); !s.Narrowed || s.Has(500) || !s.Has(404) || s.Has(99) {
		t.Errorf("not 500 and up: %+v", s)
	}
	if s := ge500.And(is404); !s.Narrowed || !s.Empty() {
		t.Errorf("500 and up and 404: %+v", s)
	}
	if s := AllHTTP().Not(); s.Narrowed || !s.Has(200) {
		t.Errorf("not of a set nothing narrowed: %+v", s)
	}
	unavailable := AllGRPC().Restrict(func(c int) bool { return c == 14 })
	if s := unavailable.Not(); s.Has(14) || !s.Has(5) || s.Has(17) {
		t.Errorf("not Unavailable: %+v", s)
	}
	if got := unavailable.Not().Permanent(); !slices.Equal(got, []int{3, 5, 7, 16}) {
		t.Errorf("permanent codes of not Unavailable: %v", got)
	}
}

func TestNotYetName(t *testing.T) {
	for _, name := range []string{"ErrNotListening", "isBackupRepositoryNotProvisionedError", "IsNotFound", "errNotReady", "ErrDoesNotExist"} {
		if !NotYetName(name) {
			t.Errorf("NotYetName(%q) = false; want true", name)
		}
	}
	for _, name := range []string{"ErrUnavailable", "isTransient", "IsConflict", "ErrNothing", "isRetryable"} {
		if NotYetName(name) {
			t.Errorf("NotYetName(%q) = true; want false", name)
		}
	}
}
