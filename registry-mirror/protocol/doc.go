// Package protocol is what the registry mirror's protocols (the provider
// network mirror and registry protocols, the module registry protocol)
// share: the errors every part of the mirror wraps, the HTTP answer each
// one gets, JSON answers, and the upload token.
//
// A GET that fails is 404 for what the mirror does not have or cannot
// name ([ErrNotFound], [ErrInvalid]), 502 when an upstream failed
// ([ErrUpstream]), and 500 otherwise: never 404, which tofu would read as
// "no such provider" or "no such module". An upload that fails is 413 past
// the size limit, 400 for malformed input ([ErrInvalid]), 409 for a
// different archive under a published name ([ErrExists]), and 500
// otherwise.
package protocol
