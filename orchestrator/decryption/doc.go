// Package decryption decrypts SOPS-encrypted manifests the way
// kustomize-controller does for a Flux Kustomization with
// spec.decryption.provider: sops, with github.com/getsops/sops/v3.
//
// Two shapes are decrypted, as in kustomize-controller:
//   - a whole object that sops encrypted (it has a sops field with a mac):
//     Object decrypts it and drops the sops metadata;
//   - a single value that is a sops-encrypted file, as a secretGenerator
//     reads it or as it lands in a generated Secret's data: Value decrypts
//     it in the format its name implies (.yaml, .json, .env, .ini, else
//     binary).
//
// The keys are age identities and OpenPGP keys. The age identities come
// from, all of them together: Keys.AgeKeyFile (strata's
// --sops-age-key-file), the file $SOPS_AGE_KEY_FILE names, $SOPS_AGE_KEY,
// $XDG_CONFIG_HOME/sops/age/keys.txt and ~/.config/sops/age/keys.txt.
// OpenPGP keys are the user's gpg keyring ($GNUPGHOME, else ~/.gnupg), read
// as sops reads it. Other sops key types (KMS, Vault, …) are refused.
//
// Keys travel in the context (WithKeys, KeysFrom), so that every command
// that loads an environment decrypts with the same keys without each one
// passing them on. A Decryptor reads its age identities once, on first use.
//
// A value that cannot be decrypted because no key opens it is a *KeyError,
// which names the recipients the value was encrypted for and the key
// sources that were tried. No error of this package holds a decrypted
// value, and sops' own log lines are discarded.
package decryption
