// Package tagged builds only with the integration tag: its client lives in
// a file behind it.
package tagged

import "time"

// Poll retries the integration client a second apart.
func Poll() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
