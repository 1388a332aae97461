// Package credentials is a minimal stand-in for
// google.golang.org/grpc/credentials v1.85.0.
package credentials

// TransportCredentials defines the common interface for all the live gRPC
// wire protocols and supported transport security protocols.
type TransportCredentials interface {
	Info() ProtocolInfo
}

// ProtocolInfo provides information regarding the gRPC wire protocol version,
// security protocol, security protocol version in use, server name, etc.
type ProtocolInfo struct {
	SecurityProtocol string
}
