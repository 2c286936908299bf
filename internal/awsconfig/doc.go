// Package awsconfig is the one place strata sets up an AWS client: the
// region (the given one, else the standard chain's AWS_REGION and shared
// config), an optional endpoint that replaces the service's (a test
// server or an S3- or SSM-compatible service), path-style bucket
// addressing for S3, and credentials from the standard AWS chain.
//
// Making a client sends no request: a wrong endpoint or missing
// credentials show on the first call. A missing region is an error here,
// because every later call would fail with a less helpful one.
//
// It is also the one read of a whole S3 object (GetObject: its data and
// ETag, false when there is none) and the one test of a missing object
// (NotFound), which the state reader, the contract store and the bucket
// records share.
package awsconfig
