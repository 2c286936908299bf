// Package s3records keeps strata's history, held plans and approvals as
// objects in an S3 bucket, under a prefix, so that every replica of the
// controller, every runner pod and every machine that runs strata reads
// and writes the same records, and any of them can take over. It is the
// same store as package kuberecords (envstores.SharedStore) for those
// who keep their records outside the cluster, or run strata with no
// cluster at all.
//
// The records themselves (run numbers, retention, interrupted runs,
// claims, held plans and approvals) are package records' engine; this
// package is its object store (records.Objects) over the bucket: names,
// conditional writes and listings.
//
// Under the prefix, a run is runs/<client>/<env>/<stack>/<number>.json
// (ten digits, so that names sort as numbers), its JSON. A held plan is
// held/<client>/<env>/<stack>/<plan id>/: its plan file, JSON and summary
// as objects of their own, and record.json, which makes it held: the Held
// record, the approval once a person gave it, and the sha256 of each file,
// which reads check. The claims on identities and state keys are
// claims.json. The code a stack last ran (records.Records.KeepArtifact)
// is artifacts/<client>/<env>/<stack>/<sha256 hex>/: its record
// (0000000000) and its one part (0000000001). Each name is path-escaped as one level, so no name makes
// another level. Every object is written encrypted at rest (SSE-S3).
//
// Writes are S3's conditional writes (If-None-Match: * to create only if
// there is none, If-Match on the ETag read), which AWS S3 and versitygw
// honour; a condition that does not hold is records.ErrChanged. A listing
// gives names only: the engine reads a stack's runs a few at a time, as
// far as it needs. No AWS SDK type leaves this package.
package s3records
