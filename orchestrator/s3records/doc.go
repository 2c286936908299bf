// Package s3records keeps strata's history, held plans and approvals as
// objects in an S3 bucket, under a prefix, so that every replica of the
// controller, every runner pod and every machine that runs strata reads
// and writes the same records, and any of them can take over. It is the
// same store as package kuberecords (orchestrator.SharedStore) for those
// who keep their records outside the cluster, or run strata with no
// cluster at all.
//
// Under the prefix, a run is runs/<client>/<env>/<stack>/<number>.json
// (ten digits, so that names sort as numbers), its JSON. A held plan is
// held/<client>/<env>/<stack>/<plan id>/: its plan file, JSON and summary
// as objects of their own, and record.json, which makes it held: the Held
// record, the approval once a person gave it, and the sha256 of each file,
// which reads check. Reads write a held plan's files out under Config.Dir,
// which is Held.Dir. The claims on identities and state keys are
// claims.json. Each name is path-escaped as one level, so no name makes
// another level. Every object is written encrypted at rest (SSE-S3).
//
// Writers never overwrite each other blindly; S3's conditional writes
// (If-None-Match: * and If-Match on the ETag read, which AWS S3 and
// versitygw honour) make each change atomic. Begin takes a run's number
// by creating its object only if there is none, so of two writers that
// read the same last run one creates it and the other takes the next
// number; Record, the interrupted marks, approvals, holds and claims each
// write over the ETag they read, and read again when another writer came
// first. A run still "running" when the next run of its stack begins, or
// when the leader calls Interrupt as it starts a reconcile, was left by a
// process that stopped, and is marked interrupted; a run its own writer
// records later keeps the result it records. Begin deletes a stack's runs
// beyond the newest Keep (DefaultKeep, 100), but never its newest good
// apply, which the next run's cause and a removed stack start from.
//
// Reads go to the bucket, never a cache, so a replica that takes over
// reads what the last one wrote. Listing a stack's runs is one list
// request and a read per run returned (a few at once); Interrupt and
// Begin read every run of the environment or of the stack. No AWS SDK
// type leaves this package.
package s3records
