# Incident 2, fixed, in Terraform: the same resources as ../../incident2-fixed/*.yaml.

variable "project" {
  type = string # no default: unknown to the checker, and not needed
}

variable "region" {
  type    = string
  default = "asia-northeast1"
}

resource "google_pubsub_topic" "order_requests" {
  name = "order-requests"
}

resource "google_pubsub_topic" "requests_dead_letter" {
  name = "requests-dead-letter"
}

resource "google_pubsub_subscription" "requests_push" {
  name                       = "requests-push"
  topic                      = google_pubsub_topic.order_requests.id
  ack_deadline_seconds       = 600
  message_retention_duration = "604800s"

  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "600s"
  }

  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.requests_dead_letter.id
    max_delivery_attempts = 5
  }

  push_config {
    push_endpoint = "${google_cloud_run_v2_service.dispatcher.uri}/orders"
    oidc_token {
      service_account_email = "push-invoker@${var.project}.iam.gserviceaccount.com"
    }
  }
}

resource "google_cloud_run_v2_service" "dispatcher" {
  name     = "dispatcher"
  location = var.region

  template {
    timeout                          = "900s"
    max_instance_request_concurrency = 10
    service_account                  = "dispatcher@${var.project}.iam.gserviceaccount.com"
    containers {
      image = "${var.region}-docker.pkg.dev/${var.project}/batch/dispatcher:2.1.0"
    }
  }
}

resource "google_workflows_workflow" "order" {
  name   = "order-workflow"
  region = var.region

  source_contents = <<-EOF
    main:
      params: [order]
      steps:
        - init:
            assign:
              - status: done
        - fulfil:
            try:
              call: googleapis.run.v1.namespaces.jobs.run
              args:
                name: namespaces/${var.project}/jobs/${google_cloud_run_v2_job.fulfil.name}
                location: ${var.region}
              result: execution
            except:
              as: e
              steps:
                - mark_failed:
                    assign:
                      - status: failed
        - notify_saga:
            try:
              call: http.post
              args:
                url: https://saga.example.internal/v1/outcomes
                body:
                  order: $${order.id}
                  status: $${status}
            except:
              as: notify_error
              steps:
                - log_notify_error:
                    call: sys.log
                    args:
                      text: $${"SAGA notification failed; the SAGA's timeout resolves the order"}
                      severity: ERROR
        - done:
            return: $${status}
  EOF
}

resource "google_cloud_run_v2_job" "fulfil" {
  name     = "fulfil-job"
  location = var.region

  template {
    task_count = 1
    template {
      max_retries     = 0
      timeout         = "600s"
      service_account = "batch-jobs@${var.project}.iam.gserviceaccount.com"
      containers {
        image = "${var.region}-docker.pkg.dev/${var.project}/batch/fulfil:3.0.2"
      }
    }
  }
}
