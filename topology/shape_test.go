package topology

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// A broken file names a kind retrylint reads, by its text, exactly when a
// manifest loader detects that kind in a document that parses; a kind no
// loader reads is not taken for one.
func TestReadKindsAreLoaded(t *testing.T) {
	detected := func(group, kind string) bool {
		var doc yaml.Node
		src := "apiVersion: " + group + "/v1\nkind: " + kind + "\nmetadata:\n  name: x\n"
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		for _, ml := range manifestLoaders {
			if ml.detects(doc.Content[0]) {
				return true
			}
		}
		return false
	}
	n := 0
	for _, ml := range manifestLoaders {
		if ml.kind == "" {
			continue
		}
		n++
		if !detected(ml.group, ml.kind) {
			t.Errorf("%s %s: no loader detects a document of it", ml.group, ml.kind)
		}
		if !ofReadKind([]byte("apiVersion: \"" + ml.group + "/v1\"\nkind: " + ml.kind + "\n")) {
			t.Errorf("ofReadKind(%s %s) = false", ml.group, ml.kind)
		}
	}
	if n < 10 {
		t.Errorf("%d Kubernetes-style loaders, want the Cloud Run, Config Connector and batch kinds", n)
	}
	for _, other := range [][2]string{{"gateway.networking.k8s.io", "Gateway"}, {"apps", "Deployment"}, {"batch", "Deployment"}, {"v1", "ConfigMap"}} {
		if detected(other[0], other[1]) || ofReadKind([]byte("apiVersion: "+other[0]+"/v1\nkind: "+other[1]+"\n")) {
			t.Errorf("%s %s is taken for a manifest retrylint reads", other[0], other[1])
		}
	}
}
