// Package kuberecords keeps strata's history, held plans and approvals as
// Kubernetes objects in one namespace, so that every replica of the
// controller and every runner pod reads and writes the same records, and
// any replica can take over.
//
// The records themselves (run numbers, retention, interrupted runs,
// claims, held plans and approvals) are package records' engine; this
// package is its object store (records.Objects) over the namespace's
// ConfigMaps and Secrets: names, labels, conditional writes and listings.
//
// A run is a ConfigMap, strata-run-<stack hash>-<number>, its JSON under
// run.json. A held plan is a Secret (plans can hold private values),
// strata-<stack hash>-<plan id>: the Held record (held.json), the approval
// once a person gave it (approval.json), and where its files are
// (payload.json). The files (plan file, JSON and summary) are one gzipped
// tar split over Secrets of at most 768 KiB (<plan>-part-<i>, under
// "part"), since the API server takes at most 1 MiB per object; a plan
// whose files take more than MaxPlanBytes (6 MiB) gzipped is not held,
// and Hold says so (ErrPlanTooLarge). The claims on identities and state
// keys are the ConfigMap strata-claims, under claims.json. The code a
// stack last ran (records.Records.KeepArtifact) is Secrets
// strata-artifact-<stack hash>-<digest hash>-<i>, under "part": -0 its
// record (how many parts), then its parts of at most 768 KiB.
//
// Every record is labelled strata.dev/record (run, held-plan,
// held-plan-part, claims, kept-artifact), with hashes of its client/environment and of its
// stack that select it whatever the names are, and with the names
// themselves where they are valid label values; annotations keep the names
// exactly, and a run the writer that began it (Config.Writer).
//
// Creating an object that exists is a conflict, so of two replicas that
// create the same run one wins; every other write is an update of the
// object's data that names the resourceVersion it read, which the API
// server refuses when another writer came first (records.ErrChanged), and
// keeps the labels and annotations the object was created with. A
// listing is one request, the objects' data with it. The verbs are get,
// list, create, update and delete, as the manifests' roles grant them. Reads go to the API
// server, never a cache, so a replica that takes over reads what the last
// one wrote. No client-go type leaves this package.
package kuberecords
