// Package providermirror serves strata's test provider (strata-iac/strata,
// built by mirrortest.BuildProvider) from a real provider mirror of
// strata's, for the tests outside registry-mirror that run tofu against
// it. The mirror package's own tests store it themselves: this package
// imports mirror.
package providermirror
