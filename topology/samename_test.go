package topology_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/rules"
	"github.com/retrylint/retrylint/topology"
)

// cloudRunJob is a Cloud Run job manifest of the given name and maxRetries.
func cloudRunJob(name string, maxRetries int) string {
	return fmt.Sprintf("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: %s\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          maxRetries: %d\n          containers:\n            - image: x\n", name, maxRetries)
}

// k8sJob is a Kubernetes Job manifest of the given name, backoffLimit and
// activeDeadlineSeconds.
func k8sJob(name string, backoffLimit, deadline int) string {
	return fmt.Sprintf("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: %s\nspec:\n  backoffLimit: %d\n  activeDeadlineSeconds: %d\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: x\n          image: x\n", name, backoffLimit, deadline)
}

// TestSameNameInTwoDirectoriesWithACopy: one name with different settings
// in two directories is two components, also when one directory holds the
// same declaration twice (a copy); two different ones in one directory are
// an error naming that directory's pair.
func TestSameNameInTwoDirectoriesWithACopy(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "envs/stg/job.yaml", cloudRunJob("mapping-job", 0))
	write(t, dir, "envs/prod/job.yaml", cloudRunJob("mapping-job", 3))
	write(t, dir, "envs/prod/job-copy.yaml", cloudRunJob("mapping-job", 3))
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	stg, prod := g.Component("stg/mapping-job"), g.Component("prod/mapping-job")
	if stg == nil || prod == nil || stg.Job.MaxRetries != 0 || prod.Job.MaxRetries != 3 {
		t.Fatalf("components %v, want stg/mapping-job (maxRetries 0) and prod/mapping-job (3)", names(g))
	}
	findings, _ := rules.Run(g, rules.Options{})
	var fired []string
	for _, f := range findings {
		if f.Rule == "job-max-retries" {
			fired = append(fired, f.Component)
		}
	}
	if len(fired) != 1 || fired[0] != "prod/mapping-job" {
		t.Errorf("job-max-retries on %v, want prod/mapping-job alone", fired)
	}

	write(t, dir, "envs/prod/job-copy.yaml", cloudRunJob("mapping-job", 5))
	_, err = topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	var ie *topology.InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Error(), "envs/prod/job") || strings.Contains(ie.Error(), "envs/stg") {
		t.Errorf("two different ones in envs/prod: error %v, want an input error naming the pair in envs/prod", err)
	}
}

// TestPlaceholderNamesDoNotClash: manifests named by an unfilled
// placeholder (${JOB_NAME}, filled at deploy time) are different
// resources, each kept apart by its file, not one declared with two
// settings.
func TestPlaceholderNamesDoNotClash(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k8s/migrate.yaml", k8sJob("${JOB_NAME}", 4, 7200))
	write(t, dir, "k8s/seed.yaml", k8sJob("${JOB_NAME}", 0, 600))
	write(t, dir, "run/a.yaml", cloudRunJob("$(JOB)", 2))
	write(t, dir, "run/b.yaml", cloudRunJob("$(JOB)", 0))
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for name, retries := range map[string]int{"${JOB_NAME} (k8s/migrate.yaml)": 4, "${JOB_NAME} (k8s/seed.yaml)": 0,
		"$(JOB) (run/a.yaml)": 2, "$(JOB) (run/b.yaml)": 0} {
		if c := g.Component(name); c == nil || c.Job.MaxRetries != retries {
			t.Errorf("%s: %+v, want a job with %d retries; components %v", name, c, retries, names(g))
		}
	}
}

// TestKubernetesJobClashNamesItsOwnFields: two Kubernetes Jobs of one name
// and different settings in one directory are an error that describes them
// by backoffLimit and activeDeadlineSeconds, not by Cloud Run's fields.
func TestKubernetesJobClashNamesItsOwnFields(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k8s/migrate.yaml", k8sJob("migrate", 4, 7200))
	write(t, dir, "k8s/migrate-v2.yaml", k8sJob("migrate", 4, 600))
	_, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	var ie *topology.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want an input error", err)
	}
	msg := ie.Error()
	for _, want := range []string{"backoffLimit 4, activeDeadlineSeconds 600 s", "backoffLimit 4, activeDeadlineSeconds 7200 s"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	for _, cloudRun := range []string{"maxRetries", "task timeout", "task(s)"} {
		if strings.Contains(msg, cloudRun) {
			t.Errorf("error %q describes a Kubernetes Job with Cloud Run's %q", msg, cloudRun)
		}
	}
}
