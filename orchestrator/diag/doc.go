// Package diag holds the problems that validation reports: each names the
// file, the object, what is wrong and how to fix it, so that every problem
// in an environment can be reported at once rather than just the first.
package diag
