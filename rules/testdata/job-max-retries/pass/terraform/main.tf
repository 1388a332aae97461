variable "retries" {
  type    = number
  default = 0
}

resource "google_cloud_run_v2_job" "zero" {
  name = "tf-zero"
  template {
    template {
      max_retries = 0
    }
  }
}

resource "google_cloud_run_v2_job" "var_default" {
  name = "tf-var-default"
  template {
    template {
      max_retries = var.retries
    }
  }
}

module "jobs" {
  source  = "./modules/job"
  name    = "tf-from-module"
  retries = 0
}
