//go:build integration

package tagged

import "errors"

func dial() error { return errors.New("refused") }
