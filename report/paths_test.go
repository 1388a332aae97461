package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// outsideRepo has a finding in the repository and one in a file outside
// it, which the command line writes as an absolute path.
var outsideRepo = &model.Result{
	Version: 1,
	Tool:    model.Tool{Name: "retrylint"},
	Findings: []model.Finding{
		{Rule: "job-max-retries", Severity: model.Error, Message: "maxRetries 3", File: "/srv/shared infra/job.yaml", Line: 16, Column: 11},
		{Rule: "job-max-retries", Severity: model.Error, Message: "maxRetries 3", File: "services/api/job.yaml", Line: 16, Column: 11},
	},
}

// TestSARIFAbsolutePath: a file outside the repository is an absolute
// file: URI, not a path under %SRCROOT%; one inside stays relative to it.
func TestSARIFAbsolutePath(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, outsideRepo, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		a := r.Locations[0].PhysicalLocation.ArtifactLocation
		got = append(got, a.URIBaseID+" "+a.URI)
	}
	want := []string{" file:///srv/shared%20infra/job.yaml", "%SRCROOT% services/api/job.yaml"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("artifact locations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMarkdownAbsolutePathNotLinked: a file outside the repository has no
// page under the link base: it is named, not linked.
func TestMarkdownAbsolutePathNotLinked(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, outsideRepo, MarkdownOptions{LinkBase: "https://github.com/acme/pay/blob/abc"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "abc//srv") || strings.Contains(out, "abc/srv") {
		t.Errorf("a file outside the repository is linked under the link base:\n%s", out)
	}
	if !strings.Contains(out, "`/srv/shared infra/job.yaml:16`") || !strings.Contains(out, "(https://github.com/acme/pay/blob/abc/services/api/job.yaml#L16)") {
		t.Errorf("want the absolute path named and the relative one linked:\n%s", out)
	}
}
