package topology

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"sort"
	"testing"
)

// TestSchemaMatchesDecoder keeps schemas/topology-v1.schema.json in step
// with the keys and kinds the decoder accepts.
func TestSchemaMatchesDecoder(t *testing.T) {
	b, err := os.ReadFile("../schemas/topology-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]struct {
		Enum []string `json:"enum"`
	}) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	same := func(what string, got, want []string) {
		want = append([]string(nil), want...)
		sort.Strings(want)
		if len(got) != len(want) {
			t.Errorf("%s: schema has %v, decoder %v", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: schema has %v, decoder %v", what, got, want)
				return
			}
		}
	}
	same("top-level keys", slices.Sorted(maps.Keys(s.Properties)), topKeys)
	same("component keys", keys(s.Defs["component"].Properties), componentKeys)
	same("call keys", keys(s.Defs["call"].Properties), callKeys)
	var kinds []string
	for _, k := range Kinds {
		kinds = append(kinds, string(k))
	}
	got := append([]string(nil), s.Defs["component"].Properties["kind"].Enum...)
	sort.Strings(got)
	same("kinds", got, kinds)
}
