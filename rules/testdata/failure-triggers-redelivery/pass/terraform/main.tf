# Deliverers in Terraform that do not redeliver, or acknowledge at the start.

resource "google_cloud_run_v2_service" "billing_api" {
  name = "billing-api-tf"
  template {
    containers {
      image = "billing:1"
    }
  }
}

# One attempt only.
resource "google_cloud_tasks_queue" "billing" {
  name = "billing-queue-tf"
  retry_config {
    max_attempts = 1
  }
  http_target {
    uri_override {
      host = "billing-api-tf-7kq2xw3fna-an.a.run.app"
    }
  }
}

# Retries only the start of a workflow execution.
resource "google_cloud_scheduler_job" "start" {
  name = "start-nightly-tf"
  retry_config {
    retry_count = 3
  }
  http_target {
    uri = "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.nightly.id}/executions"
  }
}

resource "google_workflows_workflow" "nightly" {
  name            = "nightly-tf"
  source_contents = <<-EOF
    - call_api:
        call: http.post
        args:
          url: https://billing-api-tf-7kq2xw3fna-an.a.run.app/run
    - fail:
        raise: $${"done badly"}
  EOF
}

# No retry policy: an event is delivered once.
resource "google_cloudfunctions2_function" "settle" {
  name = "settle-fn-tf"
  event_trigger {
    event_type   = "google.cloud.pubsub.topic.v1.messagePublished"
    retry_policy = "RETRY_POLICY_DO_NOT_RETRY"
  }
}

resource "google_cloudfunctions_function" "refund" {
  name = "refund-fn-tf"
  event_trigger {
    event_type = "google.pubsub.topic.publish"
    resource   = "refunds"
  }
}
