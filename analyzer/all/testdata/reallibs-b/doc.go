// Package libsb pins the real retry libraries whose stand-ins live under
// ../src: go-retryablehttp, k8s.io/apimachinery's wait and api/errors,
// client-go's util/retry, the AWS SDK for Go v2 retryers and gRPC. A test
// copies the usage packages of ../src/libsb into this module and runs the
// rules on them against the real libraries, so that the stand-ins cannot
// drift from what they stand for.
package libsb

import (
	_ "github.com/aws/aws-sdk-go-v2/aws"
	_ "github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	_ "github.com/aws/aws-sdk-go-v2/aws/retry"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/hashicorp/go-retryablehttp"
	_ "google.golang.org/grpc"
	_ "google.golang.org/grpc/credentials/insecure"
	_ "k8s.io/apimachinery/pkg/api/errors"
	_ "k8s.io/apimachinery/pkg/util/wait"
	_ "k8s.io/client-go/util/retry"
)
