package oci

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

func TestNotFoundError(t *testing.T) {
	tests := []struct {
		err  *NotFoundError
		want string
	}{
		{&NotFoundError{Repository: true, Ref: Ref{Semver: "1.0.0"}}, "repository not found"},
		{&NotFoundError{Ref: Ref{Digest: "sha256:x"}}, "manifest not found"},
		{&NotFoundError{Ref: Ref{Semver: "~> 9.0.0"}, Tags: []string{"0.1.0", "latest"}}, "no tag satisfies the constraint; tags: 0.1.0, latest"},
		{&NotFoundError{Ref: Ref{Semver: "~> 9.0.0"}}, "no tag satisfies the constraint: the repository has no tags"},
		{&NotFoundError{Ref: Ref{Tag: "9.9.9"}}, "tag not found"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	nf := &NotFoundError{Ref: Ref{Tag: "x"}}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name     string
		err      error
		notFound *NotFoundError
		want     string // "notfound", "unreachable", "plainhttp", "denied" or "same"
	}{
		{"404", &transport.Error{StatusCode: http.StatusNotFound}, nf, "notfound"},
		{"404 without a meaning", &transport.Error{StatusCode: http.StatusNotFound}, nil, "same"},
		{"401", &transport.Error{StatusCode: http.StatusUnauthorized}, nf, "denied"},
		{"500", &transport.Error{StatusCode: http.StatusInternalServerError}, nf, "same"},
		{"connection refused", fmt.Errorf("get: %w", refused), nf, "unreachable"},
		{"dns", &net.DNSError{Err: "no such host", Name: "r.invalid", IsNotFound: true}, nf, "unreachable"},
		{"plain http", &PlainHTTPError{Host: "h"}, nf, "plainhttp"},
		{"refused over https, plain http not allowed", errors.Join(refused, &PlainHTTPError{Host: "h"}), nf, "unreachable"},
		{"other", errors.New("boom"), nf, "same"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.err, "h", tt.notFound)
			var ue *UnreachableError
			var pe *PlainHTTPError
			var kind string
			switch {
			case got == error(tt.notFound):
				kind = "notfound"
			case errors.As(got, &ue):
				kind = "unreachable"
			case errors.As(got, &pe):
				kind = "plainhttp"
			case got == tt.err:
				kind = "same"
			default:
				kind = "denied"
			}
			if kind != tt.want {
				t.Errorf("classify(%v) = %v (%s), want %s", tt.err, got, kind, tt.want)
			}
			if !errors.Is(got, tt.err) && kind != "notfound" {
				t.Errorf("classify(%v) = %v, which does not wrap the original", tt.err, got)
			}
		})
	}
}
