// Package records is strata's shared records, once: the history of runs,
// held plans, approvals and the claims on identities and state keys, kept
// by any number of processes at once over an object store (Objects) that
// a backend provides: package kuberecords over the ConfigMaps and Secrets
// of a namespace, package s3records over the objects of an S3 bucket.
// Records implements envstores.SharedStore; each backend only names,
// reads and writes objects.
//
// The objects are named by a Key: a run (client, env, stack, number), a
// held plan's record (client, env, stack, plan id), a piece of a held
// plan's files, and the claims. A backend keeps its own layout of names
// and may hand the data with a listing; the engine never sees a name.
//
// Writers never overwrite each other blindly. Begin takes a run's number
// by creating its object only if there is none (Objects.Create), so of
// two writers that read the same last run one creates it and the other
// takes the next number; Record, the interrupted marks, approvals, holds
// and claims each write over the version they read (Objects.Write), and
// read again when another writer came first, at most maxWriteTries times.
// A run still "running" when the next run of its stack begins, or when
// the leader calls Interrupt as it starts a reconcile, was left by a
// process that stopped, and is marked interrupted; a run its own writer
// records later keeps the result it records. Begin deletes the stack's
// runs that its environment's history.Retention no longer keeps (Retain;
// until then, the newest Keep, DefaultKeep 100, by count alone), but
// never its first run nor its newest good apply (history.Expired), which
// the next run's cause and a removed stack start from.
//
// A held plan's record says where its files are. Over a store whose
// objects can be of any size (Objects.PartBytes 0), each file is an object
// of its own and the record keeps its sha256 ("files"). Over a store that
// bounds an object (a cluster's 1 MiB), the files travel as one gzipped
// tar split over objects of at most PartBytes, at most MaxParts of them,
// and the record keeps their number and the sha256 of the whole
// ("payload"); a plan larger than that is not held (ErrPlanTooLarge).
// Reads check the digests and write the files out under Config.Dir, which
// is Held.Dir. Either record is read whichever the store.
//
// Reads go to the store, never a cache, so a process that takes over
// reads what the last one wrote. A listing the store hands without the
// objects' data is read a few objects at a time, and List and Last* read
// only as far as they need.
//
// KeepArtifact keeps the code (a source-controller tarball) a stack last
// ran, one per stack, by its sha256, so that the stack can still be
// destroyed once its source is gone (KeptArtifact checks the digest);
// its parts are written before the record that makes it whole, and
// DropArtifacts deletes a stack's once it is gone.
package records
