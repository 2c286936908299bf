// Package awstest starts the real servers that the contract store tests
// run against, each on a free loopback port and stopped when the test
// ends: moto_server for SSM Parameter Store and versitygw (posix backend)
// for S3. It never fakes a service: when a server is not installed the
// test fails and says how to install it. With -short (make test-unit)
// every server skips the test that asks for it instead.
package awstest
