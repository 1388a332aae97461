package topology

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// Every (group, kind) that makes a broken file recognisably a manifest is
// one a manifest loader reads, and a kind retrylint does not read is not.
func TestReadKindsAreLoaded(t *testing.T) {
	detected := func(group, kind string) bool {
		var doc yaml.Node
		src := "apiVersion: " + group + "/v1\nkind: " + kind + "\nmetadata:\n  name: x\n"
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		for _, ml := range manifestLoaders {
			if ml.detect(doc.Content[0]) {
				return true
			}
		}
		return false
	}
	for group, kinds := range readKinds {
		for _, kind := range kinds {
			if !detected(group, kind) {
				t.Errorf("%s %s counts as a manifest retrylint reads, but no loader detects it", group, kind)
			}
			if !ofReadKind([]byte("apiVersion: " + group + "/v1\nkind: " + kind + "\n")) {
				t.Errorf("ofReadKind(%s %s) = false", group, kind)
			}
		}
	}
	for _, other := range [][2]string{{"gateway.networking.k8s.io", "Gateway"}, {"apps", "Deployment"}, {"batch", "Deployment"}, {"v1", "ConfigMap"}} {
		if detected(other[0], other[1]) || ofReadKind([]byte("apiVersion: "+other[0]+"/v1\nkind: "+other[1]+"\n")) {
			t.Errorf("%s %s is taken for a manifest retrylint reads", other[0], other[1])
		}
	}
}
