// Package jobs runs one stack run as a Kubernetes Job: the runner pod runs
// `strata runner` in strata's image, and the run's log lines and outcome
// come back through the API.
//
// A run is a list of steps (Launcher.Run):
//
//  1. name the Job: the same object and run key always give the same name
//     (Name), so a leader that takes over finds the Job its predecessor
//     started;
//  2. adopt: when a Job of the same object is still in flight, or the Job
//     of this very run exists (finished or not), or a Job of the object
//     finished with an outcome no leader read (not deleted, not marked
//     AnnotationRead), it is followed, never started again; no stack runs
//     twice at once, and the outcome of a run whose leader stopped is
//     read by the next one (Launcher.Unread, Executor.Adoptable);
//  3. take a runner slot: the Jobs strata labelled (LabelRunner) for the
//     controller's shard (Config.Shard: shard.JobLabel, or none for the
//     default shard) that have not finished, in every namespace, are at
//     most Config.MaxRunners. The count and the create happen under one
//     lock, and only the shard's leader starts Jobs, so the bound holds
//     across the cluster, per shard;
//  4. create the request's Secret (the serialised request: it may hold
//     variables read from Secrets, so never a ConfigMap or an env var),
//     then the Job, then make the Job the Secret's owner so both go
//     together;
//  5. follow the pod's log (pods/log, follow) once it started; while the
//     Job has no pod, the job controller's reason (its FailedCreate
//     Event) is logged, once for each reason, and told to Spec.Progress
//     (the controller writes it in the object's status), as is the pod's
//     start after that. A Job refused since its creation for
//     Config.RefusedTimeout is deleted and the run given up
//     (*RefusedError): the Executor records it as failed, nothing having
//     run, and marks its outcome RunnerPodRefused. The runner writes its slog
//     records as JSON lines, and each is logged again through
//     Config.Logger with its level, message and attributes, so the
//     controller's log and the run's history get the seed's format with
//     the stack prefix (orchestrator/runlog);
//  6. wait for the Job to finish, and read the outcome from the runner
//     container's termination message (a short JSON document written by
//     `strata runner`) and its exit code; a Job whose runner never ran to
//     its end (its pod deleted, evicted, never created before the
//     deadline) has an outcome too, a failure that says so;
//  7. leave the finished Job as it is: Run reports the outcome, and the
//     Job is released (Launcher.Release, Executor.Release) only once the
//     caller recorded it (the controller: the object's status and Event
//     written). It is then deleted with its pod and request Secret, or,
//     when the object keeps its runner pod (alwaysCleanupRunnerPod:
//     false), marked read (AnnotationRead) and given a
//     ttlSecondsAfterFinished that keeps it Config.TTL from then. A leader
//     lost at any point before leaves a Job, finished and unread, that the
//     next one adopts. The finished Jobs of the shard whose object is gone
//     (not there, nor moved to another shard) are deleted
//     (Launcher.ReleaseOrphans): no leader will record them.
//     Every Job is created with a backstop ttlSecondsAfterFinished,
//     Config.UnreadTTL (a day by default), for an outcome no leader ever
//     records (strata removed from the cluster): it does not race a
//     leader's status write, since the leader that follows a Job holds its
//     outcome from the moment it finished, and one that takes over adopts
//     an unread Job at its first pass.
//
// The pod runs as the object's service account (default tf-runner), with
// the seed's PriorityClass (terraform, which its ResourceQuota caps), the
// Tofu Controller's runnerTerminationGracePeriodSeconds (default 30) and
// the honoured fields of spec.runnerPodTemplate: metadata labels and
// annotations, image, imagePullPolicy, nodeSelector, affinity,
// tolerations, priorityClassName, securityContext, resources, and env and
// envFrom, after strata's own variables (which win) and sources; with
// Config.EnvFromSecret, the keys of that Secret of the object's namespace
// are the container's environment too (envFrom, before the object's), and
// no Job starts while the Secret is missing. The runner hands the pod's
// TF_VAR_ variables to tofu, as the Tofu Controller's runner does. The container runs as non-root on a read-only
// root filesystem, with an emptyDir for its workspace. Its deadline (activeDeadlineSeconds) is the
// run's timeout plus the grace period plus a minute, a backstop: the
// runner stops its own run at the timeout, as a local run does.
//
// A runner pod that dies mid-apply leaves the state as tofu leaves it
// when killed: locked (a Lease of tofu's kubernetes backend) and with the
// resources it was changing possibly tainted. The Job fails (it has no
// retries), the outcome says so, and the next run reports the lock as
// local runs do. A controller that stops leaves its Jobs running: the
// next leader adopts them.
//
// Executor is the controller's Executor made of runner Jobs: it turns a
// controller.Request into a runjob.Request (the stack's place in its
// artifact, the settings, the state backend: by default the Tofu
// Controller's kubernetes backend in the object's namespace), the run key
// (RunKey) and the pod (PodOf the object's spec). The runner pod's stores
// are its own, so the Executor carries the contracts the stack reads from
// the controller's store into the request (by any field:
// readInputsFromSecrets, varsFrom and valueFrom of an output Secret, and
// the contracts a read-contracts expression selects), puts the contract
// the run published back in it, and records the run in the controller's
// history, which skip-unchanged reads.
//
// No client-go type leaves this package: callers see Config, Spec, Pod
// (the pod template's API types, as the Terraform object carries them)
// and Outcome.
package jobs
