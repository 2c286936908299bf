package jobs

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/shard"
)

// podView is what a test checks of a runner Job.
type podView struct {
	ServiceAccount, PriorityClass, Image string
	Pull                                 corev1.PullPolicy
	Grace, Deadline                      int64
	Backoff                              int32
	// TTL is ttlSecondsAfterFinished: the backstop Config.UnreadTTL,
	// until Release.
	TTL                                int32
	HostNetwork, NonRoot, ReadOnlyRoot bool
	Labels, Annotations, NodeSelector  map[string]string
	Args                               []string
	Env                                map[string]string
	EnvFrom                            []string
	Tolerations                        int
	CPU                                string
}

func view(j *batchv1.Job) podView {
	p := j.Spec.Template.Spec
	c := p.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	var envFrom []string
	for _, e := range c.EnvFrom {
		envFrom = append(envFrom, e.SecretRef.Name)
	}
	return podView{
		ServiceAccount: p.ServiceAccountName, PriorityClass: p.PriorityClassName, Image: c.Image,
		Pull: c.ImagePullPolicy, Grace: *p.TerminationGracePeriodSeconds, Deadline: *j.Spec.ActiveDeadlineSeconds,
		TTL: *j.Spec.TTLSecondsAfterFinished, Backoff: *j.Spec.BackoffLimit,
		HostNetwork: p.HostNetwork, NonRoot: *p.SecurityContext.RunAsNonRoot, ReadOnlyRoot: *c.SecurityContext.ReadOnlyRootFilesystem,
		Labels: j.Spec.Template.Labels, Annotations: j.Spec.Template.Annotations, NodeSelector: p.NodeSelector,
		Args: c.Args, Env: env, EnvFrom: envFrom, Tolerations: len(p.Tolerations), CPU: c.Resources.Limits.Cpu().String(),
	}
}

func TestJob(t *testing.T) {
	grace := 90 * time.Second
	runnerLabels := map[string]string{LabelRunner: "true", LabelObject: "network", LabelManagedBy: "strata"}
	defaultArgs := []string{"runner", "--request", "/var/run/strata/request/request.json", "--state-dir", "/home/strata/.strata",
		"--namespace", "infra", "--timeout", "10m0s", "--shutdown-grace", "20s"}
	const day = 24 * 60 * 60 // DefaultUnreadTTL
	defaultEnv := map[string]string{"HOME": "/home/strata", "TMPDIR": "/home/strata/tmp", "POD_NAME": "", "POD_NAMESPACE": ""}
	tests := []struct {
		name string
		cfg  Config
		spec Spec
		want podView
	}{
		{
			name: "defaults",
			cfg:  Config{Image: "strata.local/strata:dev"},
			spec: Spec{Namespace: "infra", Object: "network", Run: "r1"},
			want: podView{
				ServiceAccount: "tf-runner", PriorityClass: "terraform", Image: "strata.local/strata:dev",
				Grace: 30, Deadline: 600 + 30 + 60, TTL: day, NonRoot: true, ReadOnlyRoot: true,
				Labels: runnerLabels, Args: defaultArgs, Env: defaultEnv, CPU: "0",
			},
		},
		{
			name: "the object's runner pod",
			cfg:  Config{Image: "strata.local/strata:dev", PriorityClass: "-", TTL: time.Minute, UnreadTTL: 90*time.Minute + 500*time.Millisecond, APIServer: "127.0.0.1:6443"},
			spec: Spec{Namespace: "infra", Object: "network", Run: "r1", Timeout: 5 * time.Minute, Pod: Pod{
				ServiceAccountName: "network-runner", GracePeriod: &grace,
				Labels: map[string]string{"team": "net", LabelRunner: "false"}, Annotations: map[string]string{"a": "b"},
				Image: "mirror.local/strata:dev", ImagePullPolicy: corev1.PullNever, NodeSelector: map[string]string{"pool": "runners"},
				Tolerations:       []corev1.Toleration{{Key: "runners", Operator: corev1.TolerationOpExists}},
				PriorityClassName: "runners",
				Resources:         corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("800m")}},
			}},
			want: podView{
				ServiceAccount: "network-runner", PriorityClass: "runners", Image: "mirror.local/strata:dev", Pull: corev1.PullNever,
				Grace: 90, Deadline: 300 + 90 + 60, TTL: 5401, HostNetwork: true, NonRoot: true, ReadOnlyRoot: true,
				Labels:      map[string]string{"team": "net", LabelRunner: "true", LabelObject: "network", LabelManagedBy: "strata"},
				Annotations: map[string]string{"a": "b"}, NodeSelector: map[string]string{"pool": "runners"},
				Args: []string{"runner", "--request", "/var/run/strata/request/request.json", "--state-dir", "/home/strata/.strata",
					"--namespace", "infra", "--timeout", "5m0s", "--shutdown-grace", "1m20s"},
				Env: map[string]string{"HOME": "/home/strata", "TMPDIR": "/home/strata/tmp", "POD_NAME": "", "POD_NAMESPACE": "",
					"KUBERNETES_SERVICE_HOST": "127.0.0.1", "KUBERNETES_SERVICE_PORT": "6443"},
				Tolerations: 1, CPU: "800m",
			},
		},
		{
			name: "records in a bucket",
			cfg: Config{Image: "strata.local/strata:dev", Records: "s3://records/strata",
				RecordsEnv: map[string]string{"AWS_REGION": "eu-west-1", "STRATA_AWS_ENDPOINT": "http://s3.local:7070"}},
			spec: Spec{Namespace: "infra", Object: "network", Run: "r1"},
			want: podView{
				ServiceAccount: "tf-runner", PriorityClass: "terraform", Image: "strata.local/strata:dev",
				Grace: 30, Deadline: 600 + 30 + 60, TTL: day, NonRoot: true, ReadOnlyRoot: true,
				Labels: runnerLabels, CPU: "0",
				Args: []string{"runner", "--request", "/var/run/strata/request/request.json", "--state-dir", "/home/strata/.strata",
					"--records", "s3://records/strata", "--timeout", "10m0s", "--shutdown-grace", "20s"},
				Env: map[string]string{"HOME": "/home/strata", "TMPDIR": "/home/strata/tmp", "POD_NAME": "", "POD_NAMESPACE": "",
					"AWS_REGION": "eu-west-1", "STRATA_AWS_ENDPOINT": "http://s3.local:7070"},
			},
		},
		{
			name: "records in a bucket, credentials from a secret",
			cfg: Config{Image: "strata.local/strata:dev", Records: "s3://records/strata",
				RecordsEnv: map[string]string{"AWS_REGION": "eu-west-1"}, EnvFromSecret: "runner-aws"},
			spec: Spec{Namespace: "infra", Object: "network", Run: "r1"},
			want: podView{
				ServiceAccount: "tf-runner", PriorityClass: "terraform", Image: "strata.local/strata:dev",
				Grace: 30, Deadline: 600 + 30 + 60, TTL: day, NonRoot: true, ReadOnlyRoot: true,
				Labels: runnerLabels, CPU: "0",
				Args: []string{"runner", "--request", "/var/run/strata/request/request.json", "--state-dir", "/home/strata/.strata",
					"--records", "s3://records/strata", "--timeout", "10m0s", "--shutdown-grace", "20s"},
				Env:     map[string]string{"HOME": "/home/strata", "TMPDIR": "/home/strata/tmp", "POD_NAME": "", "POD_NAMESPACE": "", "AWS_REGION": "eu-west-1"},
				EnvFrom: []string{"runner-aws"},
			},
		},
		{
			name: "no priority class at all",
			cfg:  Config{Image: "strata.local/strata:dev", PriorityClass: "-"},
			spec: Spec{Namespace: "infra", Object: "network", Run: "r1"},
			want: podView{
				ServiceAccount: "tf-runner", Image: "strata.local/strata:dev",
				Grace: 30, Deadline: 690, TTL: day, NonRoot: true, ReadOnlyRoot: true,
				Labels: runnerLabels, Args: defaultArgs, Env: defaultEnv, CPU: "0",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLauncher(tt.cfg, nil)
			j := l.job(tt.spec, Name(tt.spec.Object, tt.spec.Run))
			if diff := cmp.Diff(tt.want, view(j)); diff != "" {
				t.Errorf("job(%q) (-want +got):\n%s", tt.name, diff)
			}
			if j.Spec.Template.Spec.Volumes[0].Secret.SecretName != j.Name {
				t.Errorf("job(%q) reads request secret %q, want %q", tt.name, j.Spec.Template.Spec.Volumes[0].Secret.SecretName, j.Name)
			}
		})
	}
}

func TestShutdownGrace(t *testing.T) {
	tests := []struct{ grace, want time.Duration }{
		{0, time.Second},
		{10 * time.Second, 5 * time.Second},
		{30 * time.Second, 20 * time.Second},
		{360 * time.Second, 350 * time.Second},
	}
	for _, tt := range tests {
		if got := shutdownGrace(tt.grace); got != tt.want {
			t.Errorf("shutdownGrace(%v) = %v, want %v", tt.grace, got, tt.want)
		}
	}
}

// TestJobRunnerEnv: the object's runnerPodTemplate env and envFrom go on
// the runner container as the Tofu Controller puts them on its runner's,
// references and all, for the kubelet to resolve; the variables strata
// sets itself keep their values, and its --runner-env-from-secret comes
// before the object's sources.
func TestJobRunnerEnv(t *testing.T) {
	secretKey := &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "aws"}, Key: "secret"}}
	var spec v1alpha2.TerraformSpec
	spec.RunnerPodTemplate.Spec.Env = []corev1.EnvVar{
		{Name: "TF_VAR_region", Value: "eu-west-1"},
		{Name: "AWS_SECRET_ACCESS_KEY", ValueFrom: secretKey},
		{Name: "HOME", Value: "/root"},
	}
	spec.RunnerPodTemplate.Spec.EnvFrom = []corev1.EnvFromSource{
		{Prefix: "TF_VAR_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}}},
	}
	l := newLauncher(Config{Image: "strata.local/strata:dev", EnvFromSecret: "runner-aws"}, nil)
	j := l.job(Spec{Namespace: "infra", Object: "network", Run: "r1", Pod: PodOf(spec)}, Name("network", "r1"))
	c := j.Spec.Template.Spec.Containers[0]
	wantEnv := []corev1.EnvVar{
		{Name: "HOME", Value: WorkDir},
		{Name: "TMPDIR", Value: WorkDir + "/tmp"},
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		{Name: "TF_VAR_region", Value: "eu-west-1"},
		{Name: "AWS_SECRET_ACCESS_KEY", ValueFrom: secretKey},
	}
	if diff := cmp.Diff(wantEnv, c.Env); diff != "" {
		t.Errorf("runner container env (-want +got):\n%s", diff)
	}
	wantFrom := []corev1.EnvFromSource{
		{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "runner-aws"}}},
		spec.RunnerPodTemplate.Spec.EnvFrom[0],
	}
	if diff := cmp.Diff(wantFrom, c.EnvFrom); diff != "" {
		t.Errorf("runner container envFrom (-want +got):\n%s", diff)
	}
}

// TestShardJobs: a shard's runner Job, its pod and its request Secret
// carry the shard's label, and the shard counts and cleans only the Jobs
// that do; the default shard's carry none and it selects those.
func TestShardJobs(t *testing.T) {
	shard1, err := shard.Parse("sharding.fluxcd.io/key in (shard1)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		shard     shard.Shard
		wantLabel string // strata.dev/shard's value; "" for none
		wantSel   string
	}{
		{name: "default", wantSel: "strata.dev/runner=true,!strata.dev/shard"},
		{name: "shard1", shard: shard1, wantLabel: "shard1", wantSel: "strata.dev/runner=true,strata.dev/shard=shard1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLauncher(Config{Image: "strata.local/strata:dev", Shard: tt.shard}, nil)
			spec := Spec{Namespace: "infra", Object: "network", Run: "r1"}
			j := l.job(spec, Name("network", "r1"))
			sec := l.requestSecret(spec, Name("network", "r1"))
			for what, labels := range map[string]map[string]string{"job": j.Labels, "pod": j.Spec.Template.Labels, "request secret": sec.Labels} {
				got, ok := labels[shard.JobLabel]
				if got != tt.wantLabel || ok != (tt.wantLabel != "") {
					t.Errorf("%s label %s = %q (set %v), want %q", what, shard.JobLabel, got, ok, tt.wantLabel)
				}
			}
			if got := l.runnerSelector(); got != tt.wantSel {
				t.Errorf("runnerSelector() = %q, want %q", got, tt.wantSel)
			}
		})
	}
}

// TestJobPodFields: runnerPodTemplate.spec's volumes and volumeMounts
// follow the runner pod's own, in order, and its initContainers and
// hostAliases go on the pod as written, as the Tofu Controller's runner
// pod carries them (its specs tc000311, tc000320 and tc000260).
func TestJobPodFields(t *testing.T) {
	tests := []struct {
		name        string
		set         func(*v1alpha2.RunnerPodSpec)
		wantVolumes []string
		wantMounts  []string
		wantInit    []corev1.Container
		wantAliases []corev1.HostAlias
	}{
		{
			name:        "the runner pod's own",
			set:         func(*v1alpha2.RunnerPodSpec) {},
			wantVolumes: []string{"request", "work"},
			wantMounts:  []string{"request:" + RequestDir, "work:" + WorkDir},
		},
		{
			name: "the object's after them",
			set: func(s *v1alpha2.RunnerPodSpec) {
				s.Volumes = []corev1.Volume{{Name: "test-vol", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
				s.VolumeMounts = []corev1.VolumeMount{{Name: "test-vol", MountPath: "/etc/test"}}
				s.InitContainers = []corev1.Container{{Name: "testing", Image: "busybox:latest"}}
				s.HostAliases = []corev1.HostAlias{{Hostnames: []string{"foo", "bar"}}}
			},
			wantVolumes: []string{"request", "work", "test-vol"},
			wantMounts:  []string{"request:" + RequestDir, "work:" + WorkDir, "test-vol:/etc/test"},
			wantInit:    []corev1.Container{{Name: "testing", Image: "busybox:latest"}},
			wantAliases: []corev1.HostAlias{{Hostnames: []string{"foo", "bar"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var spec v1alpha2.TerraformSpec
			tt.set(&spec.RunnerPodTemplate.Spec)
			l := newLauncher(Config{Image: "strata.local/strata:dev"}, nil)
			pod := l.job(Spec{Namespace: "infra", Object: "network", Run: "r1", Pod: PodOf(spec)}, Name("network", "r1")).Spec.Template.Spec
			var volumes, mounts []string
			for _, v := range pod.Volumes {
				volumes = append(volumes, v.Name)
			}
			for _, m := range pod.Containers[0].VolumeMounts {
				mounts = append(mounts, m.Name+":"+m.MountPath)
			}
			if diff := cmp.Diff(tt.wantVolumes, volumes); diff != "" {
				t.Errorf("job(%s) volumes (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantMounts, mounts); diff != "" {
				t.Errorf("job(%s) volume mounts (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantInit, pod.InitContainers); diff != "" {
				t.Errorf("job(%s) init containers (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantAliases, pod.HostAliases); diff != "" {
				t.Errorf("job(%s) host aliases (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestJobProxy: the controller's proxy settings reach the runner pod
// unless the object sets its own, as the Tofu Controller's spec tc000260
// has them on its runner pod.
func TestJobProxy(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://proxy:1234")
	t.Setenv("HTTPS_PROXY", "http://proxy:1234")
	t.Setenv("NO_PROXY", "cluster.local")
	var spec v1alpha2.TerraformSpec
	spec.RunnerPodTemplate.Spec.Env = []corev1.EnvVar{{Name: "HTTP_PROXY", Value: "http://proxy:1235"}, {Name: "TEST_NAME", Value: "TEST_VALUE"}}
	l := newLauncher(Config{Image: "strata.local/strata:dev"}, nil)
	j := l.job(Spec{Namespace: "infra", Object: "network", Run: "r1", Pod: PodOf(spec)}, Name("network", "r1"))
	got := map[string]string{}
	for _, e := range j.Spec.Template.Spec.Containers[0].Env {
		got[e.Name] = e.Value
	}
	for k, want := range map[string]string{"HTTP_PROXY": "http://proxy:1235", "HTTPS_PROXY": "http://proxy:1234", "NO_PROXY": "cluster.local", "TEST_NAME": "TEST_VALUE"} {
		if got[k] != want {
			t.Errorf("runner env %s = %q, want %q", k, got[k], want)
		}
	}
}
