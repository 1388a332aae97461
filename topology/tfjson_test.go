package topology_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

// tfChainJSON is tfChain in Terraform's JSON syntax.
const tfChainJSON = `{
  "variable": {"project": {}},
  "resource": {
    "google_cloud_run_v2_job": {
      "etl": {
        "name": "etl-job",
        "location": "us-central1",
        "template": {
          "task_count": 4,
          "template": {"max_retries": 1, "timeout": "900s"}
        }
      }
    },
    "google_workflows_workflow": {
      "etl": {
        "name": "etl-workflow",
        "region": "us-central1",
        "source_contents": "main:\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v2.projects.locations.jobs.run\n          args:\n            name: ${google_cloud_run_v2_job.etl.id}\n        retry:\n          predicate: $${http.default_retry_predicate}\n          max_retries: 2\n"
      }
    },
    "google_eventarc_trigger": {
      "gcs": {"name": "etl-trigger", "destination": {"workflow": "${google_workflows_workflow.etl.id}"}}
    },
    "google_cloud_run_v2_service": {
      "api": {"name": "api", "template": {"timeout": "30s"}}
    },
    "google_pubsub_subscription": {
      "push": {
        "name": "projects/p/subscriptions/api-push",
        "ack_deadline_seconds": 60,
        "retry_policy": {"minimum_backoff": "20s"},
        "dead_letter_policy": {"dead_letter_topic": "projects/p/topics/dlq", "max_delivery_attempts": 7},
        "push_config": {"push_endpoint": "${google_cloud_run_v2_service.api.uri}/push"}
      }
    },
    "google_cloud_scheduler_job": {
      "start": {
        "name": "start-etl",
        "retry_config": {"retry_count": 2},
        "attempt_deadline": "60s",
        "http_target": {"uri": "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.etl.id}/executions"}
      }
    }
  }
}
`

var posFields = regexp.MustCompile(`"(Line|Col|EndCol)":\d+|\.tf\.json\b|\.tf\b|:\d+:\d+`)

// summarize renders a graph's components, edges and findings without positions or
// file extensions, to compare a .tf.json module with its .tf twin.
func summarize(t *testing.T, g *topology.Graph) string {
	t.Helper()
	var b strings.Builder
	for _, c := range g.Components {
		js, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	for _, e := range g.Edges {
		js, err := json.Marshal(e.Call)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(e.From.Name + " → " + e.To.Name + " " + string(js) + "\n")
	}
	for _, f := range g.Findings {
		b.WriteString(f.Rule + " " + f.Component + " " + f.Message + "\n")
	}
	return posFields.ReplaceAllString(b.String(), "")
}

func TestTerraformJSONComponents(t *testing.T) {
	tf, js := load(t, "main.tf", tfChain), load(t, "main.tf.json", tfChainJSON)
	if want, got := summarize(t, tf), summarize(t, js); want != got {
		t.Errorf("main.tf.json reads differently from main.tf\n--- .tf ---\n%s\n--- .tf.json ---\n%s", want, got)
	} else if !strings.Contains(want, `"Name":"etl-job"`) || !strings.Contains(want, "start-etl → etl-workflow") {
		t.Errorf("the summary misses components or edges:\n%s", want)
	}
	job := component(t, js, "etl-job", topology.KindJob)
	if j := job.Job; j.MaxRetries != 1 || j.MaxRetriesPos != (topology.Pos{File: "main.tf.json", Line: 10, Col: 24}) {
		t.Errorf("job = %+v", *j)
	}
	run := edge(t, js, "etl-workflow", "etl-job")
	if run.Retries != 2 || run.Pos.File != "main.tf.json" || run.Pos.Line != 18 {
		t.Errorf("the workflow call maps into the JSON string's line: %+v", run.Call)
	}
	sub := component(t, js, "api-push", topology.KindSubscription)
	if d := sub.Delivery; !d.DeadLetter || d.MaxDeliveryAttempts != 7 || d.PushTo != "api" || d.DeadLetterPos != (topology.Pos{File: "main.tf.json", Line: 32, Col: 9}) {
		t.Errorf("subscription = %+v", *d)
	}
}

// TestTerraformJSONWalk: a directory walk reads .tf.json files as Terraform, with the .tf files
// beside them, and a .json file that is not .tf.json as a manifest like any other.
func TestTerraformJSONWalk(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"infra/main.tf": `variable "retries" { default = 0 }
resource "google_cloud_run_v2_job" "j" {
  name = "orders-job"
  template {
    template {
      max_retries = var.retries
    }
  }
}
`,
		"infra/extra.tf.json": `{
  "resource": {"google_cloud_run_v2_job": {"off": {"count": 0, "name": "off-job"}}}
}`,
		"infra/settings.json":   `{"resource": {"google_cloud_run_v2_job": {"x": {"name": "not-terraform"}}}}`,
		"infra/package.tf.json": `{"//": "no resource of a reported type", "terraform": {"required_version": ">= 1.5"}}`,
	})
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if j := component(t, g, "orders-job", topology.KindJob); j.Job.MaxRetries != 0 || j.Job.MaxRetriesDefault {
		t.Errorf("a .tf variable's default: %+v", *j.Job)
	}
	if c := component(t, g, "off-job", topology.KindJob); !strings.Contains(c.MayNotExist, "count = 0") || c.Pos.File != "infra/extra.tf.json" {
		t.Errorf("count = 0 in .tf.json: %q at %v", c.MayNotExist, c.Pos)
	}
	if g.Component("not-terraform") != nil {
		t.Error("settings.json was read as Terraform")
	}
	skipped := map[string]string{}
	for _, s := range g.Skipped {
		skipped[s.File] = s.Why
	}
	if skipped["infra/settings.json"] != topology.SkipUnknown {
		t.Errorf("skipped = %v", skipped)
	}
}

func TestTerraformJSONInputErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{\n  \"resource\": {\n    \"google_cloud_run_v2_job\": {\"j\": {\"name\": \"j\"\n", "main.tf.json:3:38: Unclosed object"},
		{"{\"resource\": {\"google_cloud_run_v2_job\": {\"j\": {\n  \"template\": {\"template\": {\"max_retries\": 11}}\n}}}}\n", "main.tf.json:2:44: template.template.max_retries: expected 0 to 10, got 11"},
		{"{\"resource\": {\"google_eventarc_trigger\": {\"t\": {\"retry_policy\": {\"max_attempts\": 3}}}}}", "main.tf.json:1:82: retry_policy.max_attempts: expected 1"},
		{"{\"resource\": {\"google_eventarc_trigger\": {\"t\": {\"retry_policy\": {\"max_attempts\": \"${1 + 2}\"}}}}}", "main.tf.json:1:82: retry_policy.max_attempts: expected 1"},
	}
	for _, c := range cases {
		if err := loadErr(t, "main.tf.json", c.src); !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %s", err, c.want)
		}
	}
}
