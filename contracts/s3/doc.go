// Package s3 keeps contract documents as JSON objects in an S3 bucket,
// for contracts too large for SSM and for teams that keep configuration in
// S3.
//
// The key "/configuration/foo" is the object "configuration/foo.json":
// the key without its leading slash, plus ".json". That is the same
// relative path the local store uses under its directory, so a local
// contract directory and a bucket can be synced into each other as they
// are. Objects are indented JSON with content type application/json,
// written with server-side encryption: SSE-S3 (AES256), or SSE-KMS with
// Config.KMSKeyID. Private values are in the document; limit who may read
// the bucket.
//
// Credentials come from the standard AWS chain; Config.Endpoint and
// Config.PathStyle point the store at an S3-compatible server.
package s3
