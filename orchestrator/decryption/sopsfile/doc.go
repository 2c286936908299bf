// Package sopsfile decrypts SOPS-encrypted manifests with
// github.com/getsops/sops/v3, the way kustomize-controller does: sops'
// stores load the encrypted file and emit the plain one, and a key service
// of strata's own opens the data key with age identities and OpenPGP keys
// only (other sops key types are refused).
//
// It is the library of strata-sops (cmd/strata-sops), the helper strata
// runs to decrypt: sops links every cloud KMS SDK, and keeping it out of
// strata's own process keeps them out of strata's memory. Serve answers
// the line protocol of package decryption, whose Decryptor is strata's
// side of it; Decryptor here does the decryption itself.
//
// The age identities come from, all of them together: Keys.AgeKeyFile
// (strata's --sops-age-key-file), the file $SOPS_AGE_KEY_FILE names,
// $SOPS_AGE_KEY, $XDG_CONFIG_HOME/sops/age/keys.txt and
// ~/.config/sops/age/keys.txt. OpenPGP keys are the user's gpg keyring
// ($GNUPGHOME, else ~/.gnupg), read as sops reads it. A Decryptor reads
// its age identities once, on first use.
//
// A value no key opens is a *decryption.KeyError; a value sops cannot
// read (or panics on) is decryption.ErrMalformed, since sops' messages may
// quote it. No error holds a decrypted value, and sops' own log lines are
// discarded.
package sopsfile
