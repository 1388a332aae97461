variable "max_retries" {
  type        = number
  description = "Set per environment in terraform.tfvars"
}

resource "google_cloud_run_v2_job" "dedupe" {
  name     = "dedupe-job"
  location = "asia-northeast1"

  template {
    template {
      max_retries = var.max_retries
      timeout     = "600s"
      containers {
        image = "asia-northeast1-docker.pkg.dev/my-project/batch/dedupe:2.0.0"
      }
    }
  }
}
