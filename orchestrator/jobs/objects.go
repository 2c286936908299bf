package jobs

import (
	"maps"
	"math"
	"net"
	"os"
	"slices"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Paths and names inside the runner pod.
const (
	// RequestDir holds the request Secret's one key, RequestKey.
	RequestDir = "/var/run/strata/request"
	RequestKey = "request.json"
	// WorkDir is the runner's writable workspace: its state directory,
	// HOME and TMPDIR (an emptyDir: the root filesystem is read-only).
	WorkDir = "/home/strata"
	// Container is the runner container's name.
	Container = "runner"
)

// ownerOf is the Job's owner references: the run's Owner, when it has
// one.
func ownerOf(spec Spec) []metav1.OwnerReference {
	if spec.Owner.UID == "" {
		return nil
	}
	yes := true
	o := spec.Owner
	o.Controller = &yes
	return []metav1.OwnerReference{o}
}

// jobLabels are the labels of a runner Job, its pod and its request
// Secret: the shard's (shard.Shard.JobLabels) beside the runner's own.
func (l *Launcher) jobLabels(spec Spec) map[string]string {
	out := map[string]string{
		LabelRunner:    "true",
		LabelObject:    spec.Object,
		LabelManagedBy: "strata",
	}
	maps.Copy(out, l.cfg.Shard.JobLabels())
	return out
}

// runnerSelector selects the runner Jobs of the launcher's shard.
func (l *Launcher) runnerSelector() string {
	return LabelRunner + "=true," + l.cfg.Shard.JobSelector()
}

// requestSecret is the Secret that carries the run's request to the pod.
func (l *Launcher) requestSecret(spec Spec, name string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: spec.Namespace, Labels: l.jobLabels(spec)},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{RequestKey: spec.Request},
	}
}

// job is the runner Job of spec: one pod, never retried, that runs
// `strata runner` on the request, as the object's service account. Its
// ttlSecondsAfterFinished is Config.UnreadTTL, a backstop for an outcome
// no leader records: Release removes it (or sets the TTL that keeps it)
// as soon as a leader recorded it.
func (l *Launcher) job(spec Spec, name string) *batchv1.Job {
	p := spec.Pod
	grace := DefaultGracePeriod
	if p.GracePeriod != nil {
		grace = *p.GracePeriod
	}
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	sa := p.ServiceAccountName
	if sa == "" {
		sa = DefaultServiceAccount
	}
	image, pull := l.cfg.Image, l.cfg.ImagePullPolicy
	if p.Image != "" {
		image = p.Image
	}
	if p.ImagePullPolicy != "" {
		pull = p.ImagePullPolicy
	}
	priority := l.cfg.PriorityClass
	if p.PriorityClassName != "" {
		priority = p.PriorityClassName
	}
	if priority == "-" {
		priority = ""
	}
	podLabels := maps.Clone(p.Labels)
	if podLabels == nil {
		podLabels = map[string]string{}
	}
	maps.Copy(podLabels, l.jobLabels(spec))

	yes, no := true, false
	graceSeconds := int64(grace / time.Second)
	deadline := int64((timeout + grace + time.Minute) / time.Second)
	csc := p.SecurityContext.DeepCopy()
	if csc == nil {
		csc = &corev1.SecurityContext{}
	}
	if csc.ReadOnlyRootFilesystem == nil {
		csc.ReadOnlyRootFilesystem = &yes
	}
	if csc.AllowPrivilegeEscalation == nil {
		csc.AllowPrivilegeEscalation = &no
	}
	if csc.Capabilities == nil {
		csc.Capabilities = &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}
	}
	env := []corev1.EnvVar{
		{Name: "HOME", Value: WorkDir},
		{Name: "TMPDIR", Value: WorkDir + "/tmp"},
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
	}
	hostNetwork := false
	if l.cfg.APIServer != "" {
		if host, port, err := net.SplitHostPort(l.cfg.APIServer); err == nil {
			hostNetwork = true
			env = append(env,
				corev1.EnvVar{Name: "KUBERNETES_SERVICE_HOST", Value: host},
				corev1.EnvVar{Name: "KUBERNETES_SERVICE_PORT", Value: port})
		}
	}
	records := []string{"--namespace", spec.Namespace}
	if l.cfg.Records != "" {
		records = []string{"--records", l.cfg.Records}
		for _, k := range slices.Sorted(maps.Keys(l.cfg.RecordsEnv)) {
			env = append(env, corev1.EnvVar{Name: k, Value: l.cfg.RecordsEnv[k]})
		}
	}
	// The object's own variables come after strata's, less those strata
	// sets: a container's env is read in order, the last of a name
	// winning, and strata's must.
	own := map[string]bool{}
	for _, e := range env {
		own[e.Name] = true
	}
	// The controller's proxy settings, as the Tofu Controller hands its
	// own to its runner pod; the object's env of the same name wins.
	objectEnv := map[string]bool{}
	for _, e := range p.Env {
		objectEnv[e.Name] = true
	}
	for _, k := range proxyVars {
		if v := os.Getenv(k); v != "" && !objectEnv[k] && !own[k] {
			env = append(env, corev1.EnvVar{Name: k, Value: v})
		}
	}
	for _, e := range p.Env {
		if !own[e.Name] {
			env = append(env, *e.DeepCopy())
		}
	}
	var envFrom []corev1.EnvFromSource
	if l.cfg.EnvFromSecret != "" {
		envFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: l.cfg.EnvFromSecret}}}}
	}
	// envFrom's sources are read in order too, and env wins over them
	// all.
	for _, e := range p.EnvFrom {
		envFrom = append(envFrom, *e.DeepCopy())
	}
	args := append([]string{"runner",
		"--request", RequestDir + "/" + RequestKey,
		"--state-dir", WorkDir + "/.strata"},
		// The run's history and held plans are the records of the
		// object's namespace, or those Config.Records names.
		records...)
	args = append(args, "--timeout", timeout.String(), "--shutdown-grace", shutdownGrace(grace).String())
	backoff := int32(0)
	ttl := seconds(l.cfg.UnreadTTL)
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: spec.Namespace, Labels: l.jobLabels(spec), OwnerReferences: ownerOf(spec)},
		Spec: batchv1.JobSpec{
			BackoffLimit:            &backoff,
			ActiveDeadlineSeconds:   &deadline,
			TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: podLabels, Annotations: maps.Clone(p.Annotations)},
				Spec: corev1.PodSpec{
					RestartPolicy:                 corev1.RestartPolicyNever,
					ServiceAccountName:            sa,
					TerminationGracePeriodSeconds: &graceSeconds,
					PriorityClassName:             priority,
					NodeSelector:                  maps.Clone(p.NodeSelector),
					Affinity:                      p.Affinity.DeepCopy(),
					Tolerations:                   append([]corev1.Toleration(nil), p.Tolerations...),
					SecurityContext:               &corev1.PodSecurityContext{RunAsNonRoot: &yes},
					HostNetwork:                   hostNetwork,
					Containers: []corev1.Container{{
						Name:                     Container,
						Image:                    image,
						ImagePullPolicy:          pull,
						Args:                     args,
						Env:                      env,
						EnvFrom:                  envFrom,
						Resources:                *p.Resources.DeepCopy(),
						TerminationMessagePolicy: corev1.TerminationMessageReadFile,
						SecurityContext:          csc,
						VolumeMounts: append([]corev1.VolumeMount{
							{Name: "request", MountPath: RequestDir, ReadOnly: true},
							{Name: "work", MountPath: WorkDir},
						}, deepCopies(p.VolumeMounts)...),
					}},
					InitContainers: deepCopies(p.InitContainers),
					HostAliases:    deepCopies(p.HostAliases),
					Volumes: append([]corev1.Volume{
						{Name: "request", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: name}}},
						{Name: "work", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					}, deepCopies(p.Volumes)...),
				},
			},
		},
	}
}

// shutdownGrace is how long an apply in flight may go on once the pod is
// asked to stop, before tofu is interrupted: the pod's grace period, less
// the time tofu needs to stop and save its state.
func shutdownGrace(grace time.Duration) time.Duration {
	const stop = 10 * time.Second
	if grace <= 2*stop {
		return max(grace/2, time.Second)
	}
	return grace - stop
}

// seconds is d in whole seconds, rounded up, as a Job's
// ttlSecondsAfterFinished takes it.
func seconds(d time.Duration) int32 {
	return int32(min(math.Ceil(d.Seconds()), math.MaxInt32))
}

// deepCopies copies a list of Kubernetes API values, each deeply; nil for
// none.
func deepCopies[T any, P interface {
	*T
	DeepCopy() *T
}](in []T) []T {
	if len(in) == 0 {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		out[i] = *P(&in[i]).DeepCopy()
	}
	return out
}

// proxyVars are the proxy settings the runner pod takes from the
// controller's environment.
var proxyVars = []string{"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"}
