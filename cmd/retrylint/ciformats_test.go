package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestCIFormatsGolden holds the GitHub annotations and the GitLab Code
// Quality report of the payment client and of incident 1 to golden files.
func TestCIFormatsGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"code-payment", []string{"code", "./examples/payment"}},
		{"incident1", []string{"report", "--topology", "examples/topology/incident1/retrylint.yaml"}},
	}
	for _, c := range cases {
		for format, ext := range map[string]string{"github": "github.txt", "codeclimate": "codeclimate.json"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				r := runCmd(t, reportRoot, append(c.args, "--format", format)...)
				if r.code != 1 {
					t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
				}
				checkGolden(t, c.name+"."+ext, r.stdout)
				if format == "codeclimate" {
					validateCodeClimate(t, r.stdout)
				}
			})
		}
	}
}

// TestCodeClimateMatchesSARIF checks that the Code Quality report and the
// SARIF log of one run give every finding the same fingerprint, so GitLab
// and code scanning track it alike.
func TestCodeClimateMatchesSARIF(t *testing.T) {
	cc := runCmd(t, reportRoot, "code", "--format", "codeclimate", "./examples/payment")
	sarif := runCmd(t, reportRoot, "code", "--format", "sarif", "./examples/payment")
	var issues []struct {
		Fingerprint string `json:"fingerprint"`
		CheckName   string `json:"check_name"`
	}
	if err := json.Unmarshal([]byte(cc.stdout), &issues); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif.stdout), &log); err != nil {
		t.Fatal(err)
	}
	results := log.Runs[0].Results
	if len(issues) == 0 || len(issues) != len(results) {
		t.Fatalf("%d issues, %d SARIF results", len(issues), len(results))
	}
	for i, is := range issues {
		if is.CheckName != results[i].RuleID || is.Fingerprint != results[i].PartialFingerprints["retrylintFingerprint/v1"] {
			t.Errorf("issue %d: %s %s, SARIF %s %v", i, is.CheckName, is.Fingerprint, results[i].RuleID, results[i].PartialFingerprints)
		}
	}
}

// validateCodeClimate checks a report against the fields GitLab's Code
// Quality reads (testdata/report/codeclimate.schema.json).
func validateCodeClimate(t *testing.T, out string) {
	t.Helper()
	schema := schematest.Compile(t, filepath.Join(reportRoot, "testdata", "report", "codeclimate.schema.json"))
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("not a Code Quality report: %v", err)
	}
}
