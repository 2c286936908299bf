// Package gittest serves git repositories for tests with Flux's own test
// server, fluxcd/pkg/gittestserver, over HTTP (with basic auth) and SSH
// on 127.0.0.1, and makes repositories in it whose commits are tagged
// versions. The server runs git's own programs, so git must be on PATH.
package gittest
