resource "google_cloud_run_v2_job" "j" {
  name = "j"
  template {
    template {
      max_retries = 
    }
  }
}
