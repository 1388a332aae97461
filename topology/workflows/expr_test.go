package workflows

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`e.code == 503`, []string{"e", ".", "code", "==", "503"}},
		{`"a\"b" + 'c\'d'`, []string{`a"b`, "+", `c'd`}},
		{`x[0]["k"] // 2 >= 1.5e3`, []string{"x", "[", "0", "]", "[", "k", "]", "//", "2", ">=", "1.5e3"}},
		{`not("HttpError" in e.tags)`, []string{"not", "(", "HttpError", "in", "e", ".", "tags", ")"}},
		{`{"k": v}`, []string{"{", "k", ":", "v", "}"}},
		{`"\u00e9\n"`, []string{"é\n"}},
	}
	for _, tt := range tests {
		toks, err := tokenize(tt.src)
		if err != nil {
			t.Errorf("tokenize(%q): %v", tt.src, err)
			continue
		}
		var got []string
		for _, tk := range toks {
			if tk.kind != tokEOF {
				got = append(got, tk.text)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, bad := range []string{`"unterminated`, `a ? b`, `'x\`} {
		if _, err := tokenize(bad); err == nil {
			t.Errorf("tokenize(%q): want an error", bad)
		}
	}
}

func TestParseExprErrors(t *testing.T) {
	for _, src := range []string{`a +`, `(a`, `f(a,`, `a.`, `[1, 2`, `{"a" 1}`, `a b`, ``} {
		if _, err := parseExpr(src); err == nil {
			t.Errorf("parseExpr(%q): want an error", src)
		}
	}
	deep := ""
	for i := 0; i < 500; i++ {
		deep += "("
	}
	if _, err := parseExpr(deep + "a"); err == nil {
		t.Error("deeply nested expression: want an error")
	}
}

func TestExprSpan(t *testing.T) {
	tests := []struct {
		in           string
		inner        string
		ok, unclosed bool
	}{
		{`${a + b}`, `a + b`, true, false},
		{`  ${a}  `, `a`, true, false},
		{`${"}" + x}`, `"}" + x`, true, false},
		{`${json.encode({"a": 1})}`, `json.encode({"a": 1})`, true, false},
		{`plain text`, ``, false, false},
		{`text ${x}`, ``, false, false},
		{`${"a" + b`, ``, false, true},
		{`${`, ``, false, true},
		{`${"{\\"k\\": \\"" + v + "\\"}" }`, `"{\\"k\\": \\"" + v + "\\"}" `, true, false},
	}
	for _, tt := range tests {
		inner, ok, unclosed := exprSpan(tt.in)
		if inner != tt.inner || ok != tt.ok || unclosed != tt.unclosed {
			t.Errorf("exprSpan(%q) = %q, %v, %v; want %q, %v, %v", tt.in, inner, ok, unclosed, tt.inner, tt.ok, tt.unclosed)
		}
	}
}

func TestEvalResolution(t *testing.T) {
	vars := env{
		"job_name": strVal("mapping-job"),
		"region":   strVal("us-central1"),
		"seconds":  numVal(3600),
	}
	tests := []struct {
		expr string
		want string
	}{
		{`"namespaces/" + project + "/jobs/" + job_name`, "namespaces/*/jobs/mapping-job"},
		{`"projects/" + sys.get_env("GOOGLE_CLOUD_PROJECT_ID") + "/locations/" + region + "/jobs/" + job_name`, "projects/*/locations/us-central1/jobs/mapping-job"},
		{`sys.get_env("GOOGLE_CLOUD_PROJECT_ID")`, "*"},
		{`default(sys.get_env("WORKFLOW_REGION"), "us-central1")`, "*"},
		{`default(region, "x")`, "us-central1"},
		{`string(seconds) + "s"`, "3600s"},
		{`"a\"b" + 'c'`, `a"bc`},
		{`"x" + (a + b) + "y"`, "x*y"},
		{`"x" + ("y" + job_name)`, "xymapping-job"},
		{`seconds * 2`, "7200"},
		{`text.split(name, ".")[0]`, "*"},
	}
	for _, tt := range tests {
		x, err := parseExpr(tt.expr)
		if err != nil {
			t.Errorf("parseExpr(%q): %v", tt.expr, err)
			continue
		}
		if got := eval(x, vars).text(); got != tt.want {
			t.Errorf("eval(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

func TestSegmentAfter(t *testing.T) {
	tests := []struct{ name, key, want string }{
		{"namespaces/*/jobs/mapping-job", "jobs", "mapping-job"},
		{"projects/p/locations/l/jobs/scale-job", "jobs", "scale-job"},
		{"projects/*/locations/*/workflows/child", "workflows", "child"},
		{"namespaces/*", "jobs", "*"},
		{"*", "jobs", "*"},
		{"bare-name", "jobs", "bare-name"},
		{"*/jobs/", "jobs", "*"},
	}
	for _, tt := range tests {
		if got := segmentAfter(tt.name, tt.key); got != tt.want {
			t.Errorf("segmentAfter(%q, %q) = %q, want %q", tt.name, tt.key, got, tt.want)
		}
	}
}

func TestHTTPTarget(t *testing.T) {
	tests := []struct{ url, kind, name string }{
		{"https://order-service-wvdg6hhtla-uc.a.run.app/approve/*", KindService, "order-service"},
		{"https://saga-123456789012.asia-northeast1.run.app/events", KindService, "saga"},
		{"https://example.com:8443/x", KindHTTP, "example.com"},
		{"*/steps/validate", KindHTTP, "*"},
		{"https://*/x", KindHTTP, "*"},
	}
	for _, tt := range tests {
		kind, name := httpTarget(tt.url)
		if kind != tt.kind || name != tt.name {
			t.Errorf("httpTarget(%q) = %s %q, want %s %q", tt.url, kind, name, tt.kind, tt.name)
		}
	}
}

func TestConditionSignals(t *testing.T) {
	tests := []struct {
		cond string
		want []string
		any  bool
		ok   bool
	}{
		{`"OperationError" in e.tags`, []string{SignalOperationError}, false, true},
		{`"ConnectionError" in e.tags or "TimeoutError" in e.tags`, []string{SignalConnection, SignalTimeout}, false, true},
		{`"HttpError" in e.tags`, []string{SignalHTTP4xx, SignalHTTP5xx}, false, true},
		{`e.code == 503`, []string{"http-503"}, false, true},
		{`e.code >= 500`, []string{SignalHTTP5xx}, false, true},
		{`500 <= e.code`, []string{SignalHTTP5xx}, false, true},
		{`e.code in [429, 500, 503]`, []string{SignalHTTP429, "http-500", "http-503"}, false, true},
		{`"HttpError" in e.tags and e.code == 502`, []string{"http-502"}, false, true},
		{`e.code >= 400 and e.code < 500`, []string{SignalHTTP4xx}, false, true},
		{`http.default_retry_predicate(e) or "OperationError" in e.tags`, []string{SignalHTTP429, "http-502", "http-503", "http-504", SignalConnection, SignalTimeout, SignalOperationError}, false, true},
		{`true`, []string{SignalHTTP4xx, SignalHTTP5xx, SignalConnection, SignalTimeout, SignalOperationError, SignalWorkflowFailed}, true, true},
		{`map.get(e, "code") == 503 or e["code"] == 429`, []string{SignalHTTP429, "http-503"}, false, true},
		{`default(map.get(e, "code"), 0) >= 500 and not("HttpError" in e.tags)`, nil, false, true},
		{`not("HttpError" in e.tags)`, []string{SignalConnection, SignalTimeout, SignalOperationError, SignalWorkflowFailed}, false, true},
		{`e.code != 404 and "HttpError" in e.tags`, []string{}, false, true},
		{`e.message == "quota"`, nil, false, false},
		{`text.match_regex(e.message, "x")`, nil, false, false},
	}
	for _, tt := range tests {
		x, err := parseExpr(tt.cond)
		if err != nil {
			t.Fatalf("parseExpr(%q): %v", tt.cond, err)
		}
		set, ok := condSet(x, "e", 0)
		if ok != tt.ok {
			t.Errorf("condSet(%q) ok = %v, want %v", tt.cond, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		got, any := set.signals()
		if tt.want != nil && len(tt.want) == 0 {
			// every HTTP status but one: listed code by code
			if len(got) < 100 || contains(got, "http-404") {
				t.Errorf("condSet(%q) = %d signals", tt.cond, len(got))
			}
			continue
		}
		if !reflect.DeepEqual(got, tt.want) || any != tt.any {
			t.Errorf("condSet(%q) = %v any=%v, want %v any=%v", tt.cond, got, any, tt.want, tt.any)
		}
	}
}

func TestRetryMatches(t *testing.T) {
	r := &Retry{Known: true, Signals: []string{SignalHTTP429, "http-503", SignalConnection}}
	for sig, want := range map[string]bool{
		"http-503": true, SignalHTTP5xx: true, SignalHTTP4xx: true, "http-500": false,
		SignalTimeout: false, SignalOperationError: false, SignalConnection: true,
	} {
		if got := r.Matches(sig); got != want {
			t.Errorf("Matches(%q) = %v, want %v", sig, got, want)
		}
	}
	if (&Retry{Known: true, Any: true}).Matches(SignalOperationError) != true {
		t.Error("Any predicate must match everything")
	}
	if (&Retry{Known: false, Signals: []string{SignalTimeout}}).Matches(SignalTimeout) {
		t.Error("unknown predicate must match nothing")
	}
	var nilRetry *Retry
	if nilRetry.Matches(SignalTimeout) {
		t.Error("nil retry must match nothing")
	}
}
