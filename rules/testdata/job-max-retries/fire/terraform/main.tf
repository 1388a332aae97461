variable "retries" {
  type = number # no default: unknown, so the platform default 3 is assumed
}

resource "google_cloud_run_v2_job" "absent" {
  name = "tf-absent" # want job-max-retries
  template {
    template {
      containers {
        image = "job:1"
      }
    }
  }
}

resource "google_cloud_run_v2_job" "unknown" {
  name = "tf-unknown"
  template {
    template {
      max_retries = var.retries # want job-max-retries
    }
  }
}

resource "google_cloud_run_v2_job" "explicit" {
  name = "tf-explicit"
  template {
    template {
      max_retries = 2 # want job-max-retries
    }
  }
}
