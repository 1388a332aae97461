package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/model"
)

// scanningSources are the files of TestSARIFForCodeScanning: a Go file
// whose wait follows a character of two UTF-16 units and four bytes, a
// manifest whose value follows one, and a file of repeated lines, whose
// hashes GitHub's upload tells apart by a count.
var scanningSources = map[string]string{
	"retry.go":  "package retry\n\nfunc f() {\n\ts := \"\U0001F600\"; time.Sleep(d)\n}\n",
	"job.yaml":  "name: é\U0001F600x\n",
	"lorem.txt": strings.Repeat("Lorem ipsum dolor sit amet.\n", 10),
}

func readScanningSource(file string) ([]byte, error) {
	if src, ok := scanningSources[file]; ok {
		return []byte(src), nil
	}
	return nil, fs.ErrNotExist
}

// sarifScanningLog is what TestSARIFForCodeScanning reads of a log.
type sarifScanningLog struct {
	Runs []struct {
		ColumnKind string
		Results    []struct {
			RuleID              string
			PartialFingerprints map[string]string
			Locations           []struct {
				PhysicalLocation struct {
					Region *struct{ StartLine, StartColumn, EndLine, EndColumn int }
				}
			}
		}
	}
}

// TestSARIFForCodeScanning: a result carries the primaryLocationLineHash
// GitHub's upload would compute for its line, so that an upload through
// the REST API keeps each alert; the run declares its columns UTF-16 code
// units, and columns are counted so: bytes in a Go file, characters in a
// manifest, converted.
func TestSARIFForCodeScanning(t *testing.T) {
	res := &model.Result{Version: 1, Tool: model.Tool{Name: "retrylint"}, Findings: []model.Finding{
		{Rule: "fixed-sleep", Severity: model.Error, Message: "m", File: "retry.go", Line: 4, Column: 15, EndLine: 4, EndColumn: 28},
		{Rule: "amplification", Severity: model.Warning, Message: "m", File: "job.yaml", Line: 1, Column: 9, EndLine: 1, EndColumn: 10},
		{Rule: "r", Severity: model.Note, Message: "m", File: "lorem.txt", Line: 2, Column: 1},
		{Rule: "r", Severity: model.Note, Message: "m", File: "lorem.txt", Line: 7, Column: 1},
		{Rule: "r", Severity: model.Note, Message: "no such file", File: "gone.go", Line: 3, Column: 4, EndLine: 3, EndColumn: 9},
	}}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, res, SARIFOptions{Rules: catalogue, Source: readScanningSource}); err != nil {
		t.Fatal(err)
	}
	schema := schematest.CompileStrict(t, shareddata.Path(t, "schemas/sarif-schema-2.1.0.json"))
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("invalid SARIF: %v\n%s", err, buf.String())
	}
	var log sarifScanningLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q, want utf16CodeUnits", run.ColumnKind)
	}
	type region = struct{ StartLine, StartColumn, EndLine, EndColumn int }
	for i, want := range []struct {
		hash   string
		region region
	}{
		{lineHashes([]byte(scanningSources["retry.go"]))[3], region{4, 13, 4, 26}},
		{lineHashes([]byte(scanningSources["job.yaml"]))[0], region{1, 10, 1, 11}},
		{"a7f2ff13bc495cf2:2", region{2, 1, 0, 0}}, // GitHub's own test vectors
		{"a7f2ff1481e87703:1", region{7, 1, 0, 0}},
		{"", region{3, 4, 3, 9}}, // no source: no hash, the columns as they are
	} {
		r := run.Results[i]
		got, ok := r.PartialFingerprints["primaryLocationLineHash"]
		if got != want.hash || ok != (want.hash != "") {
			t.Errorf("result %d (%s): primaryLocationLineHash %q, want %q", i, res.Findings[i].File, got, want.hash)
		}
		if _, ok := r.PartialFingerprints[FingerprintKey]; !ok {
			t.Errorf("result %d: no %s", i, FingerprintKey)
		}
		if reg := r.Locations[0].PhysicalLocation.Region; reg == nil || *reg != want.region {
			t.Errorf("result %d (%s): region %+v, want %+v", i, res.Findings[i].File, reg, want.region)
		}
	}
}

// TestSARIFSourceErrorsAreNoHash: a file that cannot be read gives a
// result without the hash, never a failed log.
func TestSARIFSourceErrorsAreNoHash(t *testing.T) {
	var buf bytes.Buffer
	failing := func(string) ([]byte, error) { return nil, errors.New("permission denied") }
	if err := WriteSARIF(&buf, edgy, SARIFOptions{Rules: catalogue, Source: failing}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "primaryLocationLineHash") {
		t.Errorf("a hash without a source:\n%s", buf.String())
	}
}
