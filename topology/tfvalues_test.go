package topology_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
	"github.com/retrylint/retrylint/topology"
)

// tfJobNamed is a Cloud Run job whose name is expr, after locals.
func tfJobNamed(locals, expr string) string {
	return "locals {\n" + locals + "}\nresource \"google_cloud_run_v2_job\" \"j\" {\n  name = " + expr +
		"\n  template {\n    template {\n      max_retries = 1\n    }\n  }\n}\n"
}

// doubling is n locals, each twice the one before, made with step ("${local.%[1]s}${local.%[1]s}").
func doubling(first, step string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  l0 = %s\n", first)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  l%d = %s\n", i, fmt.Sprintf(step, fmt.Sprintf("l%d", i-1)))
	}
	return b.String()
}

// numbers is the list [0, 1, … n-1].
func numbers(n int) string {
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, fmt.Sprint(i))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// TestTerraformValuesCapped: a value that would take the machine's memory is an input error at
// the expression that makes it, before it is made: a string padded a hundred million wide,
// a hundred million spaces of indentation, locals that each double the one before (strings,
// lists, lists of the one before, objects), a for inside a for, a replacement of every
// character, a number with tens of millions of digits written out.
func TestTerraformValuesCapped(t *testing.T) {
	for _, c := range []struct {
		name, locals, expr string
		line               int
	}{
		{"format width", "", `format("%99999999s", "x")`, 4},
		{"format width in a local", "  f = \"%99999999s\"\n", `format(local.f, "x")`, 5},
		{"formatlist width", "", `join(",", formatlist("%99999999s", ["x"]))`, 4},
		{"indent", "", `indent(99999999, "a\nb")`, 4},
		{"doubling strings", doubling(`"0123456789abcdef"`, `"${local.%s}${local.%[1]s}"`, 26), "local.l26", 22},
		{"doubling lists", doubling(`["`+strings.Repeat("x", 4000)+`"]`, `concat(local.%s, local.%[1]s)`, 26), "local.l26[0]", 15},
		{"doubling tuples", doubling(`"0123456789abcdef"`, `[local.%s, local.%[1]s]`, 30), "jsonencode(local.l30)", 22},
		{"doubling objects", doubling(`"0123456789abcdef"`, `{a = local.%s, b = local.%[1]s}`, 30), "jsonencode(local.l30)", 22},
		{"doubling joins", doubling(`["0123456789abcdef"]`, `[join(",", local.%s), join(";", local.%[1]s)]`, 26), "local.l26[0]", 22},
		{"nested for", "  n = " + numbers(3000) + "\n  s = [for a in local.n : [for b in local.n : \"${a}-${b}\"]]\n", "local.s[0][0]", 3},
		{"replace every character", "  s = \"" + strings.Repeat("x", 5000) + "\"\n", `replace(local.s, "", local.s)`, 5},
		{"number written out", "", `"${1e20000000}"`, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := loadErr(t, "main.tf", tfJobNamed(c.locals, c.expr))
			if e.Pos.File != "main.tf" || e.Pos.Line != c.line || !strings.Contains(e.Msg, "more than 16 MiB") {
				t.Errorf("%v, want main.tf:%d: …more than 16 MiB…", e, c.line)
			}
		})
	}
}

// TestTerraformWorkCapped: values each within the cap, made again and again, end the read too.
func TestTerraformWorkCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n" + doubling(`"0123456789abcdef"`, `"${local.%s}${local.%[1]s}"`, 16) + "}\n") // 1 MiB
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "resource \"google_pubsub_subscription\" \"s%d\" {\n  name = \"s%d-${local.l16}\"\n}\n", i, i)
	}
	e := loadErr(t, "main.tf", b.String())
	if e.Pos.File != "main.tf" || !strings.Contains(e.Msg, "more than 256 MiB") {
		t.Errorf("%v, want main.tf: …more than 256 MiB…", e)
	}
	// Joining a list written out of 20,000 elements compares the type of each with each.
	e = loadErr(t, "main.tf", tfJobNamed("  n = "+numbers(20000)+"\n", `join(",", local.n)`))
	if e.Pos.File != "main.tf" || e.Pos.Line != 5 || !strings.Contains(e.Msg, "more than 256 MiB") {
		t.Errorf("%v, want main.tf:5: …more than 256 MiB…", e)
	}
}

// TestTerraformValuesWithinCaps: what real configurations do is evaluated as before.
func TestTerraformValuesWithinCaps(t *testing.T) {
	locals := doubling(`"0123456789abcdef"`, `"${local.%s}${local.%[1]s}"`, 16) + // 1 MiB
		"  n = " + numbers(40) + "\n  grid = flatten([for a in local.n : [for b in local.n : \"${a}-${b}\"]])\n" +
		"  padded = format(\"%-20s|%08d\", \"orders\", 42)\n  text = indent(4, join(\"\\n\", local.grid))\n"
	g := load(t, "main.tf", tfJobNamed(locals, `"${local.padded}-${length(local.grid)}-${length(split("\n", local.text))}-${substr(local.l16, 1048570, 6)}"`))
	for _, c := range g.Components {
		if c.Kind == topology.KindJob && c.Name != "orders              |00000042-1600-1600-abcdef" {
			t.Errorf("job named %q", c.Name)
		}
	}
}

// TestTerraformValueCapLinear: refusing a doubling of 4n locals costs what n do: the read
// stops at the first past the cap.
func TestTerraformValueCapLinear(t *testing.T) {
	growth.Linear(t, 30, func(n int) string {
		return tfJobNamed(doubling(`"0123456789abcdef"`, `"${local.%s}${local.%[1]s}"`, n), fmt.Sprintf("local.l%d", n))
	}, func(src string) {
		if _, err := topology.LoadBytes("main.tf", []byte(src), topology.Options{}); err == nil {
			t.Fatal("accepted")
		}
	})
}
