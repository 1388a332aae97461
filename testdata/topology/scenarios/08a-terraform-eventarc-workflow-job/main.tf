terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 5.30"
    }
  }
}

variable "project_id" {
  type    = string
  default = "my-project"
}

variable "region" {
  type    = string
  default = "asia-northeast1"
}

resource "google_service_account" "pipeline" {
  account_id   = "export-pipeline"
  display_name = "Export pipeline"
}

resource "google_cloud_run_v2_job" "export" {
  name     = "export-job"
  location = var.region

  template {
    task_count = 1
    template {
      timeout         = "300s"
      service_account = google_service_account.pipeline.email
      containers {
        image = "${var.region}-docker.pkg.dev/${var.project_id}/batch/export:2.1.0"
        resources {
          limits = {
            cpu    = "1"
            memory = "2Gi"
          }
        }
      }
    }
  }
}

resource "google_workflows_workflow" "export" {
  name            = "export-workflow"
  region          = var.region
  service_account = google_service_account.pipeline.id
  call_log_level  = "LOG_ERRORS_ONLY"
  source_contents = <<-EOT
    main:
      params: [event]
      steps:
        - init:
            assign:
              - project_id: $${sys.get_env("GOOGLE_CLOUD_PROJECT_ID")}
        - run_export:
            try:
              call: googleapis.run.v2.projects.locations.jobs.run
              args:
                name: $${"projects/" + project_id + "/locations/${var.region}/jobs/${google_cloud_run_v2_job.export.name}"}
              result: operation
            retry:
              predicate: $${job_failed}
              max_retries: 1
              backoff:
                initial_delay: 60
                max_delay: 120
                multiplier: 2
        - done:
            return: $${operation}

    job_failed:
      params: [e]
      steps:
        - check:
            switch:
              - condition: $${"OperationError" in e.tags}
                return: true
        - otherwise:
            return: false
  EOT
}

resource "google_eventarc_trigger" "export" {
  name     = "export-trigger"
  location = var.region

  matching_criteria {
    attribute = "type"
    value     = "google.cloud.storage.object.v1.finalized"
  }
  matching_criteria {
    attribute = "bucket"
    value     = "${var.project_id}-exports-inbox"
  }

  destination {
    workflow = google_workflows_workflow.export.id
  }

  service_account = google_service_account.pipeline.email
}
