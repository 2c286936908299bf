// Package ssm keeps contract documents in SSM Parameter Store, where
// services read them with External Secrets (remoteRef.key
// /configuration/foo, property private.database.endpoint).
//
// The key "/configuration/foo" is the parameter of that name, and its
// value is the document as compact JSON. A document with any private data
// is a SecureString (encrypted with Config.KMSKeyID, or the account's
// default SSM key); one without is a String. A document up to 4096 bytes
// uses the Standard tier, a larger one the Advanced tier, and one over
// 8192 bytes is refused with an error that names the contract and its
// size: such a contract belongs in the s3 store.
//
// Credentials come from the standard AWS chain (environment, shared
// config, instance role); Config.Endpoint points the store at another
// SSM-compatible server.
package ssm
