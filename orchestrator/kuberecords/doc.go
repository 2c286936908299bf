// Package kuberecords keeps strata's history, held plans and approvals as
// Kubernetes objects in one namespace, so that every replica of the
// controller and every runner pod reads and writes the same records, and
// any replica can take over.
//
// A run is a ConfigMap, strata-run-<stack hash>-<number>, its JSON under
// run.json. A held plan is a Secret (plans can hold private values),
// strata-<stack hash>-<plan id>: the Held record, the approval once a
// person gave it, and where its files are. The files (plan file, JSON and
// summary) are one gzipped tar split over Secrets of at most 768 KiB
// (<plan>-part-<i>), since the API server takes at most 1 MiB per object;
// a plan whose files take more than MaxPlanBytes (6 MiB) gzipped is not
// held, and Hold says so (ErrPlanTooLarge). Reads write a held plan's files
// out under Config.Dir, which is Held.Dir. The claims on identities and
// state keys are the ConfigMap strata-claims.
//
// Every record is labelled strata.dev/record (run, held-plan,
// held-plan-part, claims), with hashes of its client/environment and of its
// stack that select it whatever the names are, and with the names
// themselves where they are valid label values; annotations keep the names
// exactly.
//
// Writers never overwrite each other blindly: Begin takes a run's number
// by creating its object, whose name holds it, so of two replicas that
// read the same last run one creates it and the other takes the next
// number; every update names the resourceVersion it read. A run still
// "running" when the next run of its stack begins, or when the leader
// calls Interrupt as it starts a reconcile, was left by a process that
// stopped, and is marked interrupted; a run its own writer records later
// keeps the result it records. Begin deletes a stack's runs beyond the
// newest Keep (DefaultKeep, 100), but never its newest good apply, which
// the next run's cause and a removed stack start from.
//
// Reads go to the API server, never a cache, so a replica that takes over
// reads what the last one wrote. No client-go type leaves this package.
package kuberecords
