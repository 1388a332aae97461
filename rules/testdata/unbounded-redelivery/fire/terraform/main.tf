resource "google_cloud_run_v2_service" "handler" {
  name = "tf-handler"
  template {
    containers {
      image = "handler:1"
    }
  }
}

resource "google_pubsub_subscription" "push" {
  name  = "tf-push" # want unbounded-redelivery
  topic = "orders"
  push_config {
    push_endpoint = google_cloud_run_v2_service.handler.uri
  }
}

resource "google_cloudfunctions2_function" "retrying" {
  name = "tf-retrying-fn"
  event_trigger {
    event_type   = "google.cloud.pubsub.topic.v1.messagePublished"
    retry_policy = "RETRY_POLICY_RETRY" # want unbounded-redelivery
  }
}

resource "google_cloudfunctions_function" "retrying_gen1" {
  name = "tf-retrying-gen1"
  event_trigger {
    event_type = "google.pubsub.topic.publish"
    resource   = "orders"
    failure_policy {
      retry = true # want unbounded-redelivery
    }
  }
}
