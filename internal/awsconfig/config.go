package awsconfig

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/smithy-go/middleware"
)

// Config says which service endpoint a client talks to.
type Config struct {
	// Region is the AWS region; empty means the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the service's endpoint.
	Endpoint string
	// PathStyle addresses an S3 bucket in the path (endpoint/bucket/key)
	// rather than the host name, as most S3-compatible services need. Only
	// S3 clients use it.
	PathStyle bool
	// HTTPClient, when set, sends the requests instead of the SDK's own
	// client; AWS_CA_BUNDLE is then the client's business.
	HTTPClient HTTPClient
	// Timeout is how long a request may wait for its answer to start,
	// and to connect (DefaultTimeout when zero); it does not cut off a
	// long body once it flows. Unused with HTTPClient.
	Timeout time.Duration
}

// DefaultTimeout is Timeout when $STRATA_AWS_TIMEOUT does not say:
// source-controller's timeout of a fetch.
const DefaultTimeout = 60 * time.Second

// EnvTimeout, a Go duration, is Timeout's starting value: as
// $STRATA_AWS_ENDPOINT points every AWS client at one server, this gives
// every one of them (contracts, records, state) its deadline, in runner
// pods too.
const EnvTimeout = "STRATA_AWS_TIMEOUT"

// timeoutNS is Timeout's value set by SetTimeout, in nanoseconds; 0 when
// it was not set.
var timeoutNS atomic.Int64

// Timeout is Config.Timeout when that is unset: what SetTimeout set (the
// command line's --aws-timeout, before any client is made), else
// $STRATA_AWS_TIMEOUT, else DefaultTimeout.
func Timeout() time.Duration {
	if d := time.Duration(timeoutNS.Load()); d > 0 {
		return d
	}
	return EnvTimeoutOrDefault()
}

// SetTimeout sets Timeout; 0 sets it back to its default. It returns the
// value it replaced, for a test to put back.
func SetTimeout(d time.Duration) time.Duration {
	prev := Timeout()
	timeoutNS.Store(int64(d))
	return prev
}

// EnvTimeoutOrDefault is $STRATA_AWS_TIMEOUT, or DefaultTimeout when it is
// unset or not a positive duration: --aws-timeout's default.
func EnvTimeoutOrDefault() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(EnvTimeout)); err == nil && d > 0 {
		return d
	}
	return DefaultTimeout
}

// timeout is how long a request of c may wait for its answer to start.
func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return Timeout()
}

// HTTPClient sends a client's HTTP requests: an *http.Client, or a
// wrapper of one.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// errNoRegion says how to give the region nobody gave.
var errNoRegion = errors.New("no region: set one in the configuration or AWS_REGION")

// load reads the standard chain with c's region, and fails when no region
// results.
func load(ctx context.Context, c Config) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	if c.HTTPClient == nil {
		timeout := c.timeout()
		opts = append(opts,
			config.WithHTTPClient(awshttp.NewBuildableClient().
				WithDialerOptions(func(d *net.Dialer) { d.Timeout = timeout }).
				WithTransportOptions(func(tr *http.Transport) { tr.ResponseHeaderTimeout = timeout })),
			config.WithAPIOptions([]func(*middleware.Stack) error{explainTimeouts(timeout)}))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, err
	}
	if cfg.Region == "" {
		return aws.Config{}, errNoRegion
	}
	return cfg, nil
}

// endpoint is the BaseEndpoint of a client: nil keeps the service's.
func (c Config) endpoint() *string {
	if c.Endpoint == "" {
		return nil
	}
	return aws.String(c.Endpoint)
}

// explainTimeouts says, of a call that failed because the service did
// not answer in time, which URL and how long: the SDK's own error names
// neither the deadline nor, once retried, the URL.
func explainTimeouts(timeout time.Duration) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("strataExplainTimeouts",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleInitialize(ctx, in)
				var ue *url.Error
				if err != nil && errors.As(err, &ue) && ue.Timeout() {
					err = &TimeoutError{URL: ue.URL, After: timeout, Err: err}
				}
				return out, md, err
			}), middleware.Before)
	}
}

// TimeoutError is a call to a service that did not answer within its
// Timeout.
type TimeoutError struct {
	URL   string
	After time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s: no answer within %s (%v)", e.URL, e.After, e.Err)
}

// Unwrap gives the SDK's error, and context.DeadlineExceeded.
func (e *TimeoutError) Unwrap() []error { return []error{e.Err, context.DeadlineExceeded} }
