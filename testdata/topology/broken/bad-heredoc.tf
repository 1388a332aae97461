resource "google_workflows_workflow" "w" {
  name            = "w"
  source_contents = <<-EOF
    main:
      steps:
        - run:
            call: http.get
            args: [url: 1
        - next:
            return: 1
  EOF
}
