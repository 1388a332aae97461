package terraform

import (
	"strings"
	"testing"
)

// TestForEachOverAKnownMap: a resource whose for_each is a map known statically stands for one
// instance per key, each reading each.key and each.value as Terraform gives them.
func TestForEachOverAKnownMap(t *testing.T) {
	m := parse(t, `
locals {
  functions = {
    resize = { retry = "RETRY_POLICY_RETRY", timeout = 60 }
    thumb  = { retry = "RETRY_POLICY_RETRY", timeout = 120 }
    notify = { retry = "RETRY_POLICY_DO_NOT_RETRY", timeout = 30 }
  }
}
resource "google_cloudfunctions2_function" "f" {
  for_each = local.functions
  name     = "fn-${each.key}"
  service_config { timeout_seconds = each.value.timeout }
  event_trigger {
    retry_policy = each.value.retry
  }
}
`)
	want := map[string][2]string{
		`google_cloudfunctions2_function.f["notify"]`: {"fn-notify", "RETRY_POLICY_DO_NOT_RETRY"},
		`google_cloudfunctions2_function.f["resize"]`: {"fn-resize", "RETRY_POLICY_RETRY"},
		`google_cloudfunctions2_function.f["thumb"]`:  {"fn-thumb", "RETRY_POLICY_RETRY"},
	}
	if len(m.Resources) != 3 {
		t.Fatalf("%d resources, want 3", len(m.Resources))
	}
	for _, r := range m.Resources {
		w, ok := want[r.Address]
		name, retry := attr(t, r, "name"), attr(t, r, "event_trigger.retry_policy")
		if !ok || r.Repeated || name.Pattern != w[0] || !retry.Known || retry.Pattern != w[1] || attr(t, r, "service_config.timeout_seconds").Pattern == "" {
			t.Errorf("%s: name %+v, retry %+v, want %v", r.Address, name, retry, w)
		}
	}
}

// TestCountAndSetInstances: count gives instances [0] … [n-1] with count.index, and a set of
// strings instances keyed by each element.
func TestCountAndSetInstances(t *testing.T) {
	m := parse(t, `
resource "google_pubsub_subscription" "c" {
  count = 2
  name  = "sub-${count.index}"
}
resource "google_pubsub_subscription" "s" {
  for_each = toset(["a", "b"])
  name     = "set-${each.value}-${each.key}"
}
`)
	var got []string
	for _, r := range m.Resources {
		got = append(got, r.Address+"="+attr(t, r, "name").Pattern)
	}
	want := `google_pubsub_subscription.c[0]=sub-0 google_pubsub_subscription.c[1]=sub-1 google_pubsub_subscription.s["a"]=set-a-a google_pubsub_subscription.s["b"]=set-b-b`
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestForEachNotKnown: a for_each not known statically, or empty, leaves one resource that
// may stand for several or none, each unknown.
func TestForEachNotKnown(t *testing.T) {
	m := parse(t, `
variable "fns" {}
resource "google_cloudfunctions2_function" "f" {
  for_each = var.fns
  name     = each.key
}
resource "google_pubsub_subscription" "none" {
  count = 0
  name  = "none"
}
`)
	if len(m.Resources) != 2 {
		t.Fatalf("%d resources, want 2", len(m.Resources))
	}
	for _, r := range m.Resources {
		if !r.Repeated || strings.Contains(r.Address, "[") {
			t.Errorf("%s: repeated %v", r.Address, r.Repeated)
		}
	}
	if v := attr(t, m.Resources[0], "name"); v.Known {
		t.Errorf("each.key of an unknown for_each: %+v", v)
	}
}

// TestDynamicBlockMayBeAbsent: a dynamic block is there for sure only when its for_each is
// known and not empty.
func TestDynamicBlockMayBeAbsent(t *testing.T) {
	m := parse(t, `
variable "dlq" {}
resource "google_pubsub_subscription" "maybe" {
  name = "maybe"
  dynamic "dead_letter_policy" {
    for_each = var.dlq == null ? [] : [var.dlq]
    content { dead_letter_topic = dead_letter_policy.value }
  }
}
resource "google_pubsub_subscription" "sure" {
  name = "sure"
  dynamic "dead_letter_policy" {
    for_each = ["projects/p/topics/dlq"]
    content { dead_letter_topic = dead_letter_policy.value }
  }
}
`)
	maybe := resource(t, m, "google_pubsub_subscription.maybe").BlockAt("dead_letter_policy")
	sure := resource(t, m, "google_pubsub_subscription.sure").BlockAt("dead_letter_policy")
	if maybe == nil || !maybe.MayBeAbsent || sure == nil || sure.MayBeAbsent {
		t.Errorf("maybe %+v, sure %+v", maybe, sure)
	}
}

// TestReferenceToAnInstance: TYPE.NAME["key"].ARG of a for_each known statically reads that
// instance's argument, or the shape of what the provider computes for it, and names the
// instance.
func TestReferenceToAnInstance(t *testing.T) {
	m := parse(t, `
locals {
  services = toset(["orders", "billing"])
}
resource "google_cloud_run_v2_service" "svc" {
  for_each = local.services
  name     = "${each.key}-svc"
}
resource "google_pubsub_subscription" "s" {
  for_each = local.services
  name     = each.key
  push_config { push_endpoint = google_cloud_run_v2_service.svc[each.key].uri }
  labels     = { svc = google_cloud_run_v2_service.svc[each.key].name }
}
`)
	r := resource(t, m, `google_pubsub_subscription.s["billing"]`)
	push, label := attr(t, r, "push_config.push_endpoint"), attr(t, r, "labels.svc")
	if push.Pattern != "https://billing-svc-*.a.run.app" || !strings.Contains(strings.Join(push.Refs, " "), `google_cloud_run_v2_service.svc["billing"]`) {
		t.Errorf("push_endpoint = %+v", push)
	}
	if !label.Known || label.Pattern != "billing-svc" {
		t.Errorf("labels.svc = %+v", label)
	}
}
