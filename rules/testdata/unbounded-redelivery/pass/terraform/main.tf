resource "google_cloud_run_v2_service" "handler" {
  name = "tf-handler-ok"
  template {
    containers {
      image = "handler:1"
    }
  }
}

resource "google_pubsub_topic" "dlq" {
  name = "orders-dlq"
}

resource "google_pubsub_subscription" "push" {
  name  = "tf-push-dlq"
  topic = "orders"
  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.dlq.id
    max_delivery_attempts = 5
  }
  push_config {
    push_endpoint = google_cloud_run_v2_service.handler.uri
  }
}

resource "google_eventarc_trigger" "single" {
  name = "tf-single-attempt"
  destination {
    cloud_run_service {
      service = google_cloud_run_v2_service.handler.name
    }
  }
  retry_policy {
    max_attempts = 1
  }
}

resource "google_cloudfunctions2_function" "once" {
  name = "tf-once-fn"
  event_trigger {
    event_type = "google.cloud.pubsub.topic.v1.messagePublished"
  }
}
