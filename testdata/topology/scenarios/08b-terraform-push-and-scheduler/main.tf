locals {
  project = "my-project"
  region  = "asia-northeast1"
}

resource "google_cloud_run_v2_service" "billing" {
  name     = "billing-api"
  location = local.region

  template {
    timeout         = "120s"
    service_account = "billing@${local.project}.iam.gserviceaccount.com"
    containers {
      image = "${local.region}-docker.pkg.dev/${local.project}/svc/billing-api:4.2.0"
    }
  }
}

resource "google_pubsub_topic" "invoices" {
  name = "invoices"
}

resource "google_pubsub_topic" "invoices_dead_letter" {
  name = "invoices-dead-letter"
}

resource "google_pubsub_subscription" "invoices_push" {
  name  = "invoices-push"
  topic = google_pubsub_topic.invoices.id

  ack_deadline_seconds       = 120
  message_retention_duration = "604800s"

  push_config {
    push_endpoint = "${google_cloud_run_v2_service.billing.uri}/pubsub"
    oidc_token {
      service_account_email = "push-invoker@${local.project}.iam.gserviceaccount.com"
    }
  }

  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "600s"
  }

  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.invoices_dead_letter.id
    max_delivery_attempts = 5
  }
}

resource "google_cloud_scheduler_job" "nightly_close" {
  name             = "nightly-close"
  region           = local.region
  schedule         = "0 2 * * *"
  time_zone        = "Asia/Tokyo"
  attempt_deadline = "320s"

  retry_config {
    retry_count          = 3
    min_backoff_duration = "30s"
    max_backoff_duration = "300s"
  }

  http_target {
    http_method = "POST"
    uri         = "${google_cloud_run_v2_service.billing.uri}/close"
    oidc_token {
      service_account_email = "scheduler@${local.project}.iam.gserviceaccount.com"
    }
  }
}
