package protocol

import "errors"

var (
	// ErrNotFound is wrapped when the mirror has no such provider,
	// version or archive, or no such module or module version.
	ErrNotFound = errors.New("not found")
	// ErrExists is wrapped when an upload would replace an archive with
	// different content. Lock files pin archives by hash, so a published
	// archive never changes; uploading the same bytes again is fine.
	ErrExists = errors.New("already exists with different content")
	// ErrInvalid is wrapped when an address, version, file name, archive
	// or option is malformed.
	ErrInvalid = errors.New("invalid")
	// ErrUpstream is wrapped when the upstream registry of a pull-through
	// mirror failed, or served a package that does not match its
	// SHA256SUMS.
	ErrUpstream = errors.New("upstream registry")
)
