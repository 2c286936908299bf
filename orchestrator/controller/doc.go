// Package controller is `strata controller`: strata's reconcile engine
// driven by the Tofu Controller's Terraform objects in a cluster instead of
// a checkout.
//
// Each watched namespace is one environment. Controller.Run reconciles a
// namespace when it starts, whenever one of its Terraform objects or Flux
// sources changes (Cluster.Watch), and every Interval. Reconcile is a list
// of steps, each a small function:
//
//  1. list: the namespace's Terraform objects and what its environment is
//     built from (sources, ConfigMaps, Secrets); an object being deleted
//     is left out, as a stack removed from a repository is;
//  2. addFinalizers: the Tofu Controller's finalizer on every object;
//  3. load: flux.LoadNamespace, with the loader's rules, and the
//     graph; problems mark the objects they name not ready, and stop;
//  4. approve: an object whose spec.approvePlan names its pending plan
//     approves it through the Pipeline (reconcile.ApproveEnvironment), as
//     strata approve does;
//  5. run: the Pipeline's Apply (reconcile.Run) with the environment
//     built, the same code path as strata apply; only the objects deleted
//     with destroyResourcesOnDeletion have their resources destroyed
//     (runner.Hooks.Removable), through policy, by a run of the code the
//     deleted object still describes (runner.Hooks.Deleted,
//     runner.Request.Removal) that goes to the executor
//     like any other: a runner Job, with the object's service account and
//     the state backend its applies used;
//  6. writeOutputs: writeOutputsToSecret Secrets from the stacks' contract
//     documents;
//  7. writeStatus: each object's status, as the Tofu Controller writes it
//     for the same outcome (applyReport), and an Event when Ready changes
//     (the Event first: a leader lost between the two writes both again);
//  8. release: the runs an Adopter reported (runner Jobs) whose objects'
//     status was written are released (Adopter.Release); a run whose
//     status was not stays adoptable, and the next pass, or the next
//     leader, adopts it and writes its status in full; the finished runs
//     of objects that are gone are released too (Adopter.ReleaseOrphans);
//  9. removeFinalizers: a deleted object goes once nothing of it is left
//     to destroy, or at once when it keeps its resources, its
//     writeOutputsToSecret Secret deleted first, as the Tofu Controller
//     deletes it.
//
// A run of one stack is a Request, handed to an Executor, which reports
// an Outcome. Both are plain data that encode to JSON, so that a runner Job
// can carry a request to `strata runner` and report its outcome back
// (package jobs). InProcess runs the request with package runner in this
// process: outside a cluster, inside a runner pod, and in tests. A stack
// that skip-unchanged finds up to date never reaches the executor
// (runner.UpToDate): a pass with nothing changed starts no tofu process and
// no Job; nor does one whose last run failed less than its
// spec.retryInterval ago (runner.WaitToRetry). An executor whose runs outlive the leader that started them
// (Adopter: runner Jobs) is asked first whether the object has such a run
// to adopt, in flight or finished with its outcome unread; it then gets
// the request, adopts the run and reports its outcome, which the status
// is written from.
//
// While a run goes on, the executor may tell the request's Progress what
// becomes of it: a runner pod the API server refuses is written in the
// object's status at once (Ready False, reason RunnerPodRefused, with the
// refusal's reason and message, and a Warning Event), and its start after
// that too (Ready Unknown, Progressing), not at the end of the pass. An
// executor that gives such a run up reports a failed outcome marked
// RunnerPodRefused, recorded with NoteRunnerPodRefused: its status, and
// that of the passes waiting to retry it, keeps that reason. The
// Kubernetes API is reached through
// Cluster, which package kube implements.
//
// The code each run that ran tofu and converged ran is kept in the
// records (Keeper: the source-controller tarball, one per stack, by
// digest), so that an object deleted with destroyResourcesOnDeletion
// after its source is still destroyed, from that code (loadDeleted keeps
// such an object's stack, with no artifact); it is dropped with the
// object's finalizer.
//
// CheckNamespace reads a namespace as Reconcile would and changes
// nothing: per object, what strata would do otherwise than the Tofu
// Controller did (Finding), for `strata controller check` before a
// take-over.
package controller
