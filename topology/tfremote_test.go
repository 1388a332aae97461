package topology_test

import (
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

// A module retrylint cannot follow (from a registry or git, or a local
// directory that is missing, as fabric's test fixtures name one) is a
// finding only when its name says it deploys a retry layer (Pub/Sub, Cloud
// Run, Workflows, …); one for APIs, projects or networks is listed under
// --verbose, as Google's microservices-demo calls project-factory and gcloud.
func TestRemoteModules(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "main.tf", `
module "enable_google_apis" {
  source  = "terraform-google-modules/project-factory/google//modules/project_services"
  version = "~> 18.0"
}
module "network" {
  source = "git::https://github.com/example/terraform-vpc.git?ref=v1"
}
module "pubsub" {
  source  = "terraform-google-modules/pubsub/google"
  version = "~> 7.0"
}
module "jobs" {
  source = "git::https://github.com/example/cloud-run-jobs.git"
}
module "vpc" {
  source = "./fabric/modules/net-vpc"
}
module "topics" {
  source = "./fabric/modules/pubsub"
}
resource "google_cloud_run_v2_job" "j" {
  name     = "j"
  location = "us-central1"
  template {
    template {
      max_retries = 0
      containers { image = "example/j" }
    }
  }
}
`)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range g.Findings {
		found = append(found, f.Pos.String()+" "+f.Message)
	}
	for _, want := range []string{`main.tf:10:13 Terraform: module "pubsub"`, `main.tf:14:12 Terraform: module "jobs"`,
		`main.tf:20:12 Terraform: module "topics": ./fabric/modules/pubsub:`} {
		if !containsPrefix(found, want) {
			t.Errorf("no finding %q in %q", want, found)
		}
	}
	if len(found) != 3 {
		t.Errorf("findings %q, want the pubsub, jobs and topics modules only", found)
	}
	unfollowed := strings.Join(g.Unfollowed, "\n")
	for _, want := range []string{`main.tf:3:13: Terraform: module "enable_google_apis"`, `main.tf:7:12: Terraform: module "network"`,
		`main.tf:17:12: Terraform: module "vpc": ./fabric/modules/net-vpc:`} {
		if !strings.Contains(unfollowed, want) {
			t.Errorf("--verbose does not list %q: %q", want, unfollowed)
		}
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// A push endpoint that comes from a variable without default is not known
// statically: the finding quotes its expression, not a made-up name.
func TestUnknownPushEndpoint(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "main.tf", `
variable "push" {}
resource "google_pubsub_subscription" "s" {
  name  = "s"
  topic = "t"
  push_config {
    push_endpoint = var.push.endpoint
  }
}
`)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range g.Findings {
		if strings.Contains(f.Message, "delivers to") {
			if want := "delivers to an endpoint not known statically, var.push.endpoint, which matches no component"; !strings.Contains(f.Message, want) {
				t.Errorf("finding %q, want %q", f.Message, want)
			}
			if f.Pos.String() != "main.tf:7:5" {
				t.Errorf("finding at %s, want main.tf:7:5", f.Pos)
			}
			return
		}
	}
	t.Errorf("no unresolved-reference for the push endpoint: %+v", g.Findings)
}

// A root module that only calls a registry module is a pipeline of
// findings and no component: its finding is kept beside another root
// module's pipeline, not dropped with the empty graph.
func TestRootModuleOfOnlyRegistryModules(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "examples/simple/main.tf", "module \"pubsub\" {\n  source  = \"terraform-google-modules/pubsub/google\"\n  version = \"~> 7.0\"\n}\n")
	write(t, dir, "jobs/main.tf", "resource \"google_cloud_run_v2_job\" \"j\" {\n  name     = \"j\"\n  location = \"us-central1\"\n  template {\n    template {\n      max_retries = 0\n      containers { image = \"example/j\" }\n    }\n  }\n}\n")
	graphs, err := topology.LoadPipelines([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range graphs {
		for _, f := range g.Findings {
			if strings.HasPrefix(f.Pos.String(), "examples/simple/main.tf:2:13") && strings.Contains(f.Message, `module "pubsub"`) {
				found = true
				if g.Pipeline != "examples/simple" {
					t.Errorf("the finding is in pipeline %q, want examples/simple", g.Pipeline)
				}
			}
		}
	}
	if !found {
		t.Errorf("the registry pubsub module's finding was dropped (%d pipelines)", len(graphs))
	}
}

// A Cloud Scheduler target URI from a variable is quoted as written too.
func TestUnknownSchedulerTarget(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "main.tf", `
variable "target" {}
resource "google_cloud_scheduler_job" "job" {
  name     = "nightly"
  schedule = "0 3 * * *"
  http_target {
    uri = var.target
  }
}
`)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range g.Findings {
		if strings.Contains(f.Message, "nightly") {
			if want := "delivers to an endpoint not known statically, var.target, which matches no component"; !strings.Contains(f.Message, want) {
				t.Errorf("finding %q, want %q", f.Message, want)
			}
			return
		}
	}
	t.Errorf("no unresolved-reference for the scheduler's target: %+v", g.Findings)
}
