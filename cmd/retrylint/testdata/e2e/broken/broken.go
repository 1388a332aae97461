// Package broken does not type-check: retrylint must fail with exit status 2.
package broken

func F() int {
	return "not an int"
}
