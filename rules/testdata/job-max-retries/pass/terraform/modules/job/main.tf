variable "name" {}
variable "retries" {
  default = 3
}

resource "google_cloud_run_v2_job" "this" {
  name = var.name
  template {
    template {
      max_retries = var.retries
    }
  }
}
