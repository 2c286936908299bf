// Package tofutest finds the real tofu binary for tests, and wraps it in
// one that records the arguments of each command.
package tofutest
