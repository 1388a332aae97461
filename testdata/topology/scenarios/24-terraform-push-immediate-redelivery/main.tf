resource "google_cloud_run_v2_service" "indexer" {
  name     = "indexer"
  location = "asia-northeast1"
  template {
    containers {
      image = "asia-northeast1-docker.pkg.dev/my-project/svc/indexer:0.3.1"
    }
  }
}

resource "google_pubsub_topic" "docs" {
  name = "docs-changed"
}

resource "google_pubsub_subscription" "docs_push" {
  name  = "docs-push"
  topic = google_pubsub_topic.docs.id

  push_config {
    push_endpoint = google_cloud_run_v2_service.indexer.uri
  }
}
