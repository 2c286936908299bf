package oci

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// NotFoundError says a registry holds no artefact for a reference: the
// repository, tag or digest does not exist, or no tag satisfies a semver
// constraint. The error that wraps it names the address and the reference.
type NotFoundError struct {
	// URL is the repository, "oci://host/repo".
	URL string
	// Ref is the reference that found nothing.
	Ref Ref
	// Repository is true when the repository itself does not exist.
	Repository bool
	// Tags are the repository's tags, when no tag satisfied Ref.Semver.
	Tags []string
}

func (e *NotFoundError) Error() string {
	switch {
	case e.Repository:
		return "repository not found"
	case e.Ref.Digest != "":
		return "manifest not found"
	case e.Ref.Semver != "":
		if len(e.Tags) == 0 {
			return "no tag satisfies the constraint: the repository has no tags"
		}
		return "no tag satisfies the constraint; tags: " + strings.Join(e.Tags, ", ")
	default:
		return "tag not found"
	}
}

// UnreachableError says a registry could not be reached at all: it is
// down, the address is wrong, or the network is.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("registry %s unreachable: %v", e.Host, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// PlainHTTPError says a registry was to be reached over plain http
// although it is not listed in Options.Insecure.
type PlainHTTPError struct {
	Host string
}

func (e *PlainHTTPError) Error() string {
	return fmt.Sprintf("plain http to %s refused: it is not listed as an insecure registry", e.Host)
}

// classify turns a registry client error into one of this package's:
// notFound (when not nil) for a 404, *UnreachableError when no connection
// could be made, and otherwise err itself.
func classify(err error, host string, notFound *NotFoundError) error {
	var te *transport.Error
	if errors.As(err, &te) {
		switch {
		case te.StatusCode == http.StatusNotFound && notFound != nil:
			return notFound
		case te.StatusCode == http.StatusUnauthorized || te.StatusCode == http.StatusForbidden:
			return fmt.Errorf("access denied by %s (credentials come from $%s/$%s or a Docker config.json): %w", host, EnvUsername, EnvPassword, err)
		}
		return err
	}
	var de *net.DNSError
	if errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &de) {
		return &UnreachableError{Host: host, Err: err}
	}
	// Refused by policy, not by the network: say so, not "unreachable".
	var pe *PlainHTTPError
	if errors.As(err, &pe) {
		return err
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return &UnreachableError{Host: host, Err: err}
	}
	return err
}
