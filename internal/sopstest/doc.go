// Package sopstest encrypts test fixtures with sops, for the tests of
// strata's decryption: fresh age identities, an OpenPGP key in a
// throw-away gpg home, and files encrypted for them as the sops CLI
// encrypts them. Fixtures are encrypted at test time, so that no private
// key, even a test one, is kept in the repository.
//
// strata decrypts through its helper, strata-sops: Helper points
// $STRATA_SOPS at a real one ($STRATA_SOPS as make test sets it, else one
// built from the checkout once per test binary).
package sopstest
