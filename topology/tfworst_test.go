package topology_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/rules"
	"github.com/retrylint/retrylint/topology"
)

// errorsOf loads a main.tf and returns its error findings as "rule component", sorted, and
// the messages of its warnings.
func errorsOf(t *testing.T, src string) (errs, warnings []string) {
	t.Helper()
	g := load(t, "main.tf", src)
	findings, _ := rules.Run(g, rules.Options{})
	for _, f := range findings {
		if f.Severity == model.Error {
			errs = append(errs, f.Rule+" "+f.Component)
		} else {
			warnings = append(warnings, f.Message)
		}
	}
	sort.Strings(errs)
	return errs, warnings
}

// functionsRetrying are three 2nd gen functions that retry failed Pub/Sub events with no
// dead-letter policy, their settings in a local map that for_each goes over.
const functionsRetrying = `
locals {
  functions = {
    resize = { retry = "RETRY_POLICY_RETRY" }
    thumb  = { retry = "RETRY_POLICY_RETRY" }
    notify = { retry = "RETRY_POLICY_RETRY" }
  }
}
resource "google_pubsub_topic" "t" {
  name = "events"
}
resource "google_cloudfunctions2_function" "f" {
  for_each = local.functions
  name     = each.key
  location = "us-central1"
  event_trigger {
    event_type   = "google.cloud.pubsub.topic.v1.messagePublished"
    pubsub_topic = google_pubsub_topic.t.id
    retry_policy = each.value.retry
  }
}
`

// TestForEachFunctionsThatRetryFail: each function of a for_each over a known local map is
// read with its own each.value: three that redeliver without end are three errors.
func TestForEachFunctionsThatRetryFail(t *testing.T) {
	errs, _ := errorsOf(t, functionsRetrying)
	want := "unbounded-redelivery notify-trigger unbounded-redelivery resize-trigger unbounded-redelivery thumb-trigger"
	if strings.Join(errs, " ") != want {
		t.Errorf("errors %q, want %s", errs, want)
	}
}

// TestUnknownRetrySettingsAssumedWorst: a retry setting not known statically is taken at its
// worst, and a warning says so: a function's retry policy as retrying, a job's max_retries as
// 10, a queue's max_attempts as unbounded, a scheduler's retry_count as 5, a dead-letter
// policy's max_delivery_attempts as 100.
func TestUnknownRetrySettingsAssumedWorst(t *testing.T) {
	errs, warnings := errorsOf(t, `
variable "unknown" {}
resource "google_cloudfunctions2_function" "f" {
  name = "fn"
  event_trigger {
    retry_policy = var.unknown
  }
}
resource "google_cloudfunctions_function" "g" {
  name = "gen1"
  event_trigger {
    failure_policy { retry = var.unknown }
  }
}
`)
	if want := "unbounded-redelivery fn-trigger unbounded-redelivery gen1-trigger"; strings.Join(errs, " ") != want {
		t.Errorf("errors %q, want %s", errs, want)
	}
	if got := strings.Join(warnings, "\n"); strings.Count(got, "the worst case") < 2 || strings.Contains(got, "one delivery") {
		t.Errorf("warnings do not say the worst was assumed:\n%s", got)
	}

	g := load(t, "main.tf", `
variable "unknown" {}
resource "google_cloud_run_v2_job" "j" {
  name = "j"
  template {
    template { max_retries = var.unknown }
  }
}
resource "google_cloud_tasks_queue" "q" {
  name = "q"
  retry_config { max_attempts = var.unknown }
}
resource "google_cloud_scheduler_job" "s" {
  name = "s"
  retry_config { retry_count = var.unknown }
  http_target { uri = "https://example.com/" }
}
resource "google_pubsub_subscription" "d" {
  name = "d"
  dead_letter_policy {
    dead_letter_topic     = "projects/p/topics/dlq"
    max_delivery_attempts = var.unknown
  }
  push_config { push_endpoint = "https://example.com/" }
}
`)
	got := fmt.Sprint(component(t, g, "j", topology.KindJob).Job.MaxRetries, " ",
		component(t, g, "q", topology.KindQueue).Retry.Unbounded, " ",
		component(t, g, "s", topology.KindScheduler).Calls[0].Retries, " ",
		component(t, g, "d", topology.KindSubscription).Delivery.MaxDeliveryAttempts)
	if got != "10 true 5 100" {
		t.Errorf("max_retries, unbounded, retry_count, max_delivery_attempts = %s, want 10 true 5 100", got)
	}
}

// TestDynamicDeadLetterMayBeAbsent: a dead-letter policy written as a dynamic block whose
// for_each may be empty may be absent: the subscription is read without it, and said so.
func TestDynamicDeadLetterMayBeAbsent(t *testing.T) {
	errs, warnings := errorsOf(t, `
variable "dlq" {}
resource "google_pubsub_subscription" "s" {
  name = "s"
  push_config { push_endpoint = "https://example.com/" }
  dynamic "dead_letter_policy" {
    for_each = var.dlq == null ? [] : [var.dlq]
    content {
      dead_letter_topic     = dead_letter_policy.value
      max_delivery_attempts = 5
    }
  }
}
`)
	if want := "unbounded-redelivery s"; strings.Join(errs, " ") != want {
		t.Errorf("errors %q, want %s", errs, want)
	}
	if got := strings.Join(warnings, "\n"); !strings.Contains(got, "may be absent") {
		t.Errorf("no warning says the dead-letter policy may be absent:\n%s", got)
	}
}

// TestForEachPushToInstances: subscriptions and services of one for_each, each subscription
// pushing to its own service's uri: every delivery reaches the service instance it names.
func TestForEachPushToInstances(t *testing.T) {
	g := load(t, "main.tf", `
locals {
  services = toset(["orders", "billing"])
}
resource "google_cloud_run_v2_service" "svc" {
  for_each = local.services
  name     = each.key
}
resource "google_pubsub_subscription" "s" {
  for_each = local.services
  name     = "${each.key}-sub"
  push_config { push_endpoint = google_cloud_run_v2_service.svc[each.key].uri }
  dead_letter_policy { dead_letter_topic = "projects/p/topics/dlq" }
}
`)
	var got []string
	for _, e := range g.Edges {
		got = append(got, e.From.Name+"->"+e.To.Name)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "billing-sub->billing orders-sub->orders" || len(g.Findings) != 0 {
		t.Errorf("edges %v, findings %v", got, g.Findings)
	}
}
