package retryloop

import "sort"

// addUnique appends s to list unless present, keeping it sorted.
func addUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	list = append(list, s)
	sort.Strings(list)
	return list
}
