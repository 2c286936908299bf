// Package statefile reads which version of a stack's state exists: the
// serial and lineage of the state file, cheaply, without tofu. strata
// records them after every apply; a state whose serial or lineage differs
// from the record was changed outside strata (`tofu state rm`, another
// tool), so the stack is planned again whatever its inputs.
//
// Local state is a file read; S3 state is one GET of the state object,
// whether the environment's S3 backend keeps it or a stack's own s3
// backend block (a backendConfig.customConfiguration, read with
// ParseS3Backend) names its bucket and key. Any other backend is not read,
// and the check does not apply to it.
//
// It also reads who holds a state's lock, for the messages and the
// releases of spec.tfstate.forceUnlock: a local state's lock file, an S3
// state's .tflock object, and the Lease of the kubernetes backend
// (ParseKubernetesBackend, ReadKubernetesLock).
package statefile
