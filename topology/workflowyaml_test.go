package topology_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

// TestWorkflowsInvalidYAMLIsAnInputError: a Workflows source that is not
// valid YAML — an unquoted ${…} holding ": ", which Workflows itself
// rejects — fails the run at the line and column where the YAML breaks,
// named or met in a walk, in a file or a Terraform heredoc; it is never quoted into shape and checked.
func TestWorkflowsInvalidYAMLIsAnInputError(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"wf/colon.yaml", "main:\n  steps:\n    - log:\n        call: sys.log\n        args:\n          text: ${\"failed: \" + string(1)}\n    - done:\n        return: ok\n",
			"wf/colon.yaml:6:26: invalid YAML"},
		{"wf/list.yaml", "- log:\n    call: sys.log\n    args:\n      text: ${\"code: \" + string(e.code)}\n",
			"wf/list.yaml:4:20: invalid YAML"},
		{"tf/main.tf", "resource \"google_workflows_workflow\" \"flow\" {\n  name            = \"flow\"\n  source_contents = <<-EOF\n    main:\n      steps:\n        - log:\n            call: sys.log\n            args:\n              text: $${\"failed: \" + string(1)}\n  EOF\n}\n",
			"tf/main.tf:9:31: invalid YAML"},
		{"wf/multiline.yaml", "main:\n  steps:\n    - t:\n        return: ${json.encode({\n            \"a\": 1\n        })}\n",
			"wf/multiline.yaml:5:16: invalid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, named := range []bool{true, false} {
				dir := t.TempDir()
				write(t, dir, tc.name, tc.src)
				arg := dir
				if named {
					arg = filepath.Join(dir, tc.name)
				}
				_, err := topology.Load([]string{arg}, topology.Options{WorkDir: dir})
				var ie *topology.InputError
				if !errors.As(err, &ie) || !strings.HasPrefix(ie.Error(), tc.want) {
					t.Errorf("named %v: error %v, want an input error %q…", named, err, tc.want)
				} else if hint := "quote the expression as a whole"; !strings.Contains(tc.name, "multiline") && !strings.Contains(ie.Error(), hint) {
					t.Errorf("named %v: error %v does not say to %s", named, err, hint)
				}
			}
		})
	}
}
