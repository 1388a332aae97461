package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// A component assumed in one pipeline (referenced there, not loaded) and
// read from a manifest in another, under the same name, is drawn and
// marked assumed only in the first.
func TestAssumedPerPipeline(t *testing.T) {
	one, three := int64(1), int64(3)
	r := &model.Result{Version: 1, Assumed: []string{"job"}, Chains: []model.Chain{
		{Root: "wf", Target: "job", Path: []string{"wf", "job"}, Formula: "(2+1) = 3", Attempts: &three, Pipeline: "envs/prod", Assumed: true},
		{Root: "wf", Target: "wf", Path: []string{"wf"}, Formula: "1", Attempts: &one, Pipeline: "envs/prod"},
		{Root: "wf", Target: "job", Path: []string{"wf", "job"}, Formula: "(2+1) = 3", Attempts: &three, Pipeline: "envs/stg"},
		{Root: "wf", Target: "wf", Path: []string{"wf"}, Formula: "1", Attempts: &one, Pipeline: "envs/stg"},
	}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	prod, stg, ok := strings.Cut(md, "### Pipeline `envs/stg`")
	if !ok {
		t.Fatalf("no section for envs/stg:\n%s", md)
	}
	if !strings.Contains(prod, "job _(assumed)_") {
		t.Errorf("envs/prod does not mark job assumed:\n%s", prod)
	}
	if strings.Contains(stg, "_(assumed)_") {
		t.Errorf("envs/stg marks job assumed, though its manifest was read:\n%s", stg)
	}
}
