# Incident 1, fixed, in Terraform: the same resources as ../../incident1-fixed/*.yaml.

variable "project" {
  type = string # no default: unknown to the checker, and not needed
}

variable "region" {
  type    = string
  default = "asia-northeast1"
}

resource "google_cloud_run_v2_job" "mapping" {
  name     = "mapping-job"
  location = var.region

  template {
    task_count = 1
    template {
      max_retries     = 0
      timeout         = "300s"
      service_account = "batch-jobs@${var.project}.iam.gserviceaccount.com"
      containers {
        image = "${var.region}-docker.pkg.dev/${var.project}/batch/mapping:1.4.0"
      }
    }
  }
}

resource "google_cloud_run_v2_job" "report" {
  name     = "report-job"
  location = var.region

  template {
    task_count = 1
    template {
      max_retries     = 0
      timeout         = "300s"
      service_account = "batch-jobs@${var.project}.iam.gserviceaccount.com"
      containers {
        image = "${var.region}-docker.pkg.dev/${var.project}/batch/report:1.4.0"
      }
    }
  }
}

resource "google_workflows_workflow" "mapping" {
  name            = "mapping-workflow"
  region          = var.region
  service_account = "batch-workflows@${var.project}.iam.gserviceaccount.com"

  source_contents = <<-EOF
    main:
      params: [event]
      steps:
        - run_mapping:
            try:
              call: googleapis.run.v1.namespaces.jobs.run
              args:
                name: namespaces/${var.project}/jobs/${google_cloud_run_v2_job.mapping.name}
                location: ${var.region}
              result: mapping_execution
            # retrylint:ignore multiple-retry-layers the app retries only transient Gemini errors; the workflow owns job failure
            retry:
              predicate: $${job_failed}
              max_retries: 2
              backoff:
                initial_delay: 30
                max_delay: 120
                multiplier: 2
            except:
              as: e
              steps:
                - report_mapping_failure:
                    call: http.post
                    args:
                      url: https://saga.example.internal/v1/outcomes
                      body:
                        step: mapping
                        status: failed
                - end_mapping:
                    return: failed
        - run_report:
            try:
              call: googleapis.run.v1.namespaces.jobs.run
              args:
                name: namespaces/${var.project}/jobs/${google_cloud_run_v2_job.report.name}
                location: ${var.region}
              result: report_execution
            retry:
              predicate: $${job_failed}
              max_retries: 2
              backoff:
                initial_delay: 30
                max_delay: 120
                multiplier: 2
            except:
              as: e
              steps:
                - report_report_failure:
                    call: http.post
                    args:
                      url: https://saga.example.internal/v1/outcomes
                      body:
                        step: report
                        status: failed
                - end_report:
                    return: failed
        - done:
            return: $${report_execution}

    job_failed:
      params: [e]
      steps:
        - check:
            switch:
              - condition: $${"OperationError" in e.tags}
                return: true
        - otherwise:
            return: false
  EOF
}

resource "google_pubsub_topic" "mapping_requests" {
  name = "mapping-requests"
}

resource "google_eventarc_trigger" "mapping" {
  name            = "mapping-trigger"
  location        = var.region
  service_account = "batch-workflows@${var.project}.iam.gserviceaccount.com"

  matching_criteria {
    attribute = "type"
    value     = "google.cloud.pubsub.topic.v1.messagePublished"
  }

  destination {
    workflow = google_workflows_workflow.mapping.id
  }

  transport {
    pubsub {
      topic = google_pubsub_topic.mapping_requests.id
    }
  }
}
