// Package deadline bounds a network call: a context that ends after a
// duration with a cause naming what was asked and how long strata waited
// ("GET https://host/x: no answer within 1m0s"), and a way to call a
// client that does not look at its context (go-git's ssh dial) without
// being held by it.
package deadline
