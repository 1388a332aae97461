variable "region" {
  type    = string
  default = "asia-northeast1"
}

variable "job_retries" {
  type        = number
  description = "Task retries; the workflow owns retries, keep this at 0."
  default     = 0
}

resource "google_cloud_run_v2_job" "rollup" {
  name     = "rollup-job"
  location = var.region

  template {
    task_count = 1
    template {
      max_retries = var.job_retries
      timeout     = "1200s"
      containers {
        image = "${var.region}-docker.pkg.dev/my-project/batch/rollup:7.1.0"
      }
    }
  }
}

resource "google_workflows_workflow" "rollup" {
  name   = "rollup-workflow"
  region = var.region
  source_contents = templatefile("${path.module}/rollup.workflow.yaml.tftpl", {
    job_name = google_cloud_run_v2_job.rollup.name
    region   = var.region
  })
}

resource "google_cloud_scheduler_job" "rollup" {
  name      = "rollup-hourly"
  region    = var.region
  schedule  = "5 * * * *"
  time_zone = "Etc/UTC"

  retry_config {
    retry_count = 2
  }

  http_target {
    http_method = "POST"
    uri         = "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.rollup.id}/executions"
    body        = base64encode(jsonencode({ argument = jsonencode({ window = "1h" }) }))
    oauth_token {
      service_account_email = "scheduler@my-project.iam.gserviceaccount.com"
    }
  }
}
