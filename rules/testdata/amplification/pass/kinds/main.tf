resource "google_cloud_tasks_queue" "mail" {
  name = "mail-queue-ok"
  retry_config {
    max_attempts = 3
  }
}
