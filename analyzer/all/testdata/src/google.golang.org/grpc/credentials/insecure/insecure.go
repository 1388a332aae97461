// Package insecure is a minimal stand-in for
// google.golang.org/grpc/credentials/insecure v1.85.0.
package insecure

import "google.golang.org/grpc/credentials"

// NewCredentials returns a credentials which disables transport security.
func NewCredentials() credentials.TransportCredentials { return insecureTC{} }

type insecureTC struct{}

func (insecureTC) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: "insecure"}
}
