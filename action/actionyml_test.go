package action

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionStep is a step of the composite action.
type actionStep struct {
	ID  string            `yaml:"id"`
	Env map[string]string `yaml:"env"`
	Run string            `yaml:"run"`
}

// TestActionInputsReachTheScript checks action.yml against run.sh: every
// input the script reads is declared and handed over by the step, and
// every declared input is used.
func TestActionInputsReachTheScript(t *testing.T) {
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"inputs"`
		Runs struct {
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", action.Runs.Using)
	}
	script, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	read := regexp.MustCompile(`INPUT_[A-Z_]+`).FindAllString(string(script), -1)
	i := slices.IndexFunc(action.Runs.Steps, func(s actionStep) bool { return s.ID == "run" })
	if i < 0 || !strings.Contains(action.Runs.Steps[i].Run, "action/run.sh") {
		t.Fatal("no step with id run that runs action/run.sh")
	}
	env := action.Runs.Steps[i].Env
	for _, v := range read {
		input := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(v, "INPUT_"), "_", "-"))
		if _, ok := action.Inputs[input]; !ok {
			t.Errorf("run.sh reads %s but action.yml declares no input %q", v, input)
		}
		if env[v] != "${{ inputs."+input+" }}" {
			t.Errorf("the run step sets %s to %q, want the input %s", v, env[v], input)
		}
	}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if !strings.Contains(string(b), "inputs."+name+" ") && !strings.Contains(string(b), "inputs."+name+"}") {
			t.Errorf("input %s is declared but not used", name)
		}
	}
}
