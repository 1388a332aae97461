variable "retry_count" {
  type    = number
  default = 1
}

resource "google_workflows_workflow" "known" {
  name            = "tf-known-workflow"
  source_contents = file("${path.module}/known.yaml")
}

resource "google_cloud_scheduler_job" "nightly" {
  name = "tf-nightly-known"
  retry_config {
    retry_count = var.retry_count
  }
  http_target {
    uri = "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.known.id}/executions"
  }
}
