// Package decryption decrypts SOPS-encrypted manifests the way
// kustomize-controller does for a Flux Kustomization with
// spec.decryption.provider: sops. The sops library itself runs in a helper
// process, strata-sops (cmd/strata-sops, package sopsfile), not in
// strata: it links every cloud KMS SDK, about 70 MB of binary and 20 MiB
// of memory in every strata process otherwise.
//
// Two shapes are decrypted, as in kustomize-controller:
//   - a whole object that sops encrypted (it has a sops field with a mac):
//     Object decrypts it and drops the sops metadata;
//   - a single value that is a sops-encrypted file, as a secretGenerator
//     reads it or as it lands in a generated Secret's data: Value decrypts
//     it in the format its name implies (.yaml, .json, .env, .ini, else
//     binary).
//
// A Decryptor starts one strata-sops on the first value that is
// encrypted, never when nothing is, sends it every value after that, and
// ends it on Close or when its context ends. It finds strata-sops at
// $STRATA_SOPS, else beside strata's own executable, else on $PATH
// (FindHelper); when there is none, decrypting is a *HelperError that
// says where it looked, and nothing else needs it. strata and strata-sops
// speak one line of JSON per value each way (Request, Response); the
// helper's errors cross as WireError and come back as they were made: a
// *KeyError, ErrMalformed, or the message.
//
// The keys are age identities and OpenPGP keys. The age identities come
// from, all of them together: Keys.AgeKeyFile (strata's
// --sops-age-key-file, passed to strata-sops as --age-key-file), the file
// $SOPS_AGE_KEY_FILE names, $SOPS_AGE_KEY, $XDG_CONFIG_HOME/sops/age/keys.txt
// and ~/.config/sops/age/keys.txt. OpenPGP keys are the user's gpg keyring
// ($GNUPGHOME, else ~/.gnupg), read as sops reads it. strata-sops
// inherits strata's environment. Other sops key types (KMS, Vault, …) are
// refused.
//
// Keys travel in the context (WithKeys, KeysFrom), so that every command
// that loads an environment decrypts with the same keys without each one
// passing them on. Keys.Identity is a digest of them, for caches.
//
// A value that cannot be decrypted because no key opens it is a *KeyError,
// which names the recipients the value was encrypted for and the key
// sources that were tried. No error of this package holds a decrypted
// value: strata-sops writes decrypted values to its standard output only,
// and discards sops' own log lines.
package decryption
