variable "workflow_source" {} # no default
variable "retry_count" {
  type = number
}

resource "google_workflows_workflow" "opaque" {
  name            = "tf-opaque-workflow" # want unresolved-reference
  source_contents = var.workflow_source
}

resource "google_cloud_scheduler_job" "nightly" {
  name = "tf-nightly"
  retry_config {
    retry_count = var.retry_count # want unresolved-reference
  }
  http_target {
    uri = "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.opaque.id}/executions"
  }
}

module "remote" {
  source = "terraform-google-modules/cloud-run/google" # want unresolved-reference
}
