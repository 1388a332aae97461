# Deliverers in Terraform that redelivers to a handler which already retries below.

resource "google_cloud_run_v2_service" "billing_api" {
  name = "billing-api"
  template {
    containers {
      image = "billing:1"
    }
  }
}

# A Cloud Tasks queue re-dispatches a failed task up to 9 more times.
resource "google_cloud_tasks_queue" "billing" {
  name = "billing-queue"
  retry_config {
    max_attempts = 10
  }
  http_target {
    uri_override {
      host = "billing-api-7kq2xw3fna-an.a.run.app" # want failure-triggers-redelivery
    }
  }
}

# A scheduler with retries in front of the same service.
resource "google_cloud_scheduler_job" "billing" {
  name     = "billing-nightly"
  schedule = "0 3 * * *"
  retry_config {
    retry_count = 2
  }
  http_target {
    http_method = "POST"
    uri         = "${google_cloud_run_v2_service.billing_api.uri}/run" # want failure-triggers-redelivery
  }
}

# A gen 2 function whose events are retried for up to 7 days.
resource "google_cloudfunctions2_function" "settle" {
  name     = "settle-fn"
  location = "europe-west1"
  event_trigger {
    event_type   = "google.cloud.pubsub.topic.v1.messagePublished"
    retry_policy = "RETRY_POLICY_RETRY" # want failure-triggers-redelivery
  }
}

# A gen 1 function with failure_policy.retry.
resource "google_cloudfunctions_function" "refund" {
  name    = "refund-fn"
  runtime = "go122"
  event_trigger {
    event_type = "google.pubsub.topic.publish"
    resource   = "refunds"
    failure_policy {
      retry = true # want failure-triggers-redelivery
    }
  }
}
