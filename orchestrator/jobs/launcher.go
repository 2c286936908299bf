package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/shard"
)

// Defaults, as the Tofu Controller's and the seed's.
const (
	DefaultServiceAccount = "tf-runner"
	DefaultPriorityClass  = "terraform"
	DefaultGracePeriod    = 30 * time.Second
	DefaultMaxRunners     = 10
	DefaultTimeout        = 10 * time.Minute
	// DefaultTTL is how long a finished Job whose object keeps its
	// runner pod (alwaysCleanupRunnerPod: false) stays once its outcome
	// is recorded, for kubectl logs.
	DefaultTTL = 10 * time.Minute
	// DefaultUnreadTTL is how long a finished Job stays when no leader
	// records its outcome (strata removed from the cluster, or no leader
	// for that long): a backstop far beyond the seconds a live leader
	// takes to record it.
	DefaultUnreadTTL = 24 * time.Hour
	// DefaultRefusedTimeout is how long a Job's pod may be refused by the
	// API server before the run is given up: long enough for a passing
	// cause (a full ResourceQuota) to clear.
	DefaultRefusedTimeout = 5 * time.Minute
)

// Labels strata puts on every runner Job and its pod.
const (
	// LabelRunner marks a runner Job: the Jobs counted against
	// MaxRunners.
	LabelRunner = "strata.dev/runner"
	// LabelObject names the Terraform object the Job runs, as the Tofu
	// Controller labels its runner pods.
	LabelObject = "infra.contrib.fluxcd.io/terraform"
	// LabelManagedBy is app.kubernetes.io/managed-by: strata.
	LabelManagedBy = "app.kubernetes.io/managed-by"
)

// Config is what every runner Job shares.
type Config struct {
	// Kubeconfig is the kubeconfig file to reach the cluster with; empty
	// uses $KUBECONFIG, else the in-cluster configuration.
	Kubeconfig string
	// Image is strata's image, which runs `strata runner`; when empty, the
	// image of the pod strata runs in (named by $POD_NAMESPACE and
	// $POD_NAME, as the manifests set them).
	Image string
	// ImagePullPolicy is the container's pull policy (Kubernetes' default
	// when empty).
	ImagePullPolicy corev1.PullPolicy
	// MaxRunners bounds the shard's runner Jobs in flight across the
	// cluster (DefaultMaxRunners when zero).
	MaxRunners int
	// PriorityClass is the runner pods' PriorityClass unless the object's
	// runnerPodTemplate names one (DefaultPriorityClass when empty; "-"
	// for none).
	PriorityClass string
	// TTL is how long a Job kept after its run (Pod.KeepAfterRun) stays
	// once Release recorded its outcome (DefaultTTL when zero). No Job
	// has a TTL before that: its outcome must wait for a leader.
	TTL time.Duration
	// UnreadTTL is every runner Job's ttlSecondsAfterFinished from its
	// creation (DefaultUnreadTTL when zero): the backstop that removes a
	// finished Job whose outcome no leader ever records. A leader that
	// follows the Job has its outcome (the pod's log and termination
	// message) the moment it finishes and keeps it until it wrote the
	// status; one that takes over adopts an unread Job at its first pass.
	// Either is far within the backstop, and a Job removed after its
	// outcome was read loses nothing: Release finds it gone.
	UnreadTTL time.Duration
	// RefusedTimeout is how long a Job may go without a pod, its pod
	// refused by the API server, before the run is given up
	// (DefaultRefusedTimeout when zero): the Job is deleted, nothing ran,
	// and Run returns a *RefusedError.
	RefusedTimeout time.Duration
	// APIServer, when set (host:port), runs runner pods on the host's
	// network and points their in-cluster configuration at this address
	// instead of the kubernetes Service: for clusters without a Service
	// proxy, whose API server listens on the node's loopback.
	APIServer string
	// Poll is how often a Job's state and the runner slots are read
	// (one second when zero).
	Poll time.Duration
	// Logger receives the runner's log lines, and the launcher's own.
	Logger *slog.Logger
	// Records, when set (s3://bucket/prefix), is where runner pods keep
	// their runs' history and held plans, instead of the object's
	// namespace; RecordsEnv is set in their environment to reach it (the
	// region and endpoint). Their credentials are the pod's service
	// account's, never the controller's.
	Records    string
	RecordsEnv map[string]string
	// EnvFromSecret, when set, names a Secret of the object's namespace
	// whose keys become the runner container's environment (envFrom):
	// credentials the pod's service account does not give, such as
	// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for Records. A Job is
	// started only once the Secret is there. RecordsEnv and strata's own
	// variables take precedence over its keys.
	EnvFromSecret string
	// NoDefaultPolicy is the controller's --no-default-policy: the runner
	// pods judge plans without the default bundle (with no other policy,
	// not at all).
	NoDefaultPolicy bool
	// Shard is the controller's shard (--watch-label-selector): its runner
	// Jobs carry its label (shard.JobLabel) and MaxRunners bounds them
	// alone, so each shard has its own runner limit. The zero Shard is
	// the default one, whose Jobs have no shard label.
	Shard shard.Shard
}

// Spec is one run to start as a Job.
type Spec struct {
	// Namespace and Object are the Terraform object's.
	Namespace, Object string
	// Owner, when it has a UID, is the Job's owner and controller: the
	// Terraform object, as the Tofu Controller owns its runner pod, so
	// that the object's deletion takes its Jobs with it.
	Owner metav1.OwnerReference
	// Run tells this run apart from the object's other runs; the same
	// Object and Run always give the same Job name.
	Run string
	// Request is the serialised request `strata runner` reads.
	Request []byte
	// Timeout is the run's timeout (DefaultTimeout when zero).
	Timeout time.Duration
	// Pod is the runner pod's part of the object's spec.
	Pod Pod
	// Progress, when set, is told, with the Job's name, while the Job
	// has no pod why the API server refused it (the job controller's
	// Event: its reason, such as FailedCreate, and message), once for
	// each reason, and told ("", "") once its pod started after such a
	// refusal.
	Progress func(job, reason, message string)
}

// Pod is what the Terraform object says of its runner pod.
type Pod struct {
	// ServiceAccountName is spec.serviceAccountName (DefaultServiceAccount
	// when empty).
	ServiceAccountName string
	// GracePeriod is spec.runnerTerminationGracePeriodSeconds
	// (DefaultGracePeriod when nil).
	GracePeriod *time.Duration
	// KeepAfterRun is spec.alwaysCleanupRunnerPod: false. The Job is then
	// left for its TTL instead of deleted once released.
	KeepAfterRun bool
	// Labels and Annotations are spec.runnerPodTemplate.metadata's.
	Labels, Annotations map[string]string
	// The honoured fields of spec.runnerPodTemplate.spec.
	Image             string
	ImagePullPolicy   corev1.PullPolicy
	NodeSelector      map[string]string
	Affinity          *corev1.Affinity
	Tolerations       []corev1.Toleration
	PriorityClassName string
	SecurityContext   *corev1.SecurityContext
	Resources         corev1.ResourceRequirements
	// Env and EnvFrom are spec.runnerPodTemplate.spec's, put on the
	// runner container as the Tofu Controller puts them on its runner's:
	// the kubelet resolves them, and the runner hands its TF_VAR_
	// variables to tofu (runner.Config.PodEnv). The variables strata
	// sets itself win over them.
	Env     []corev1.EnvVar
	EnvFrom []corev1.EnvFromSource
	// Volumes and VolumeMounts are spec.runnerPodTemplate.spec's, after
	// the runner pod's own (request, work), in order; InitContainers and
	// HostAliases go on the pod as written.
	Volumes        []corev1.Volume
	VolumeMounts   []corev1.VolumeMount
	InitContainers []corev1.Container
	HostAliases    []corev1.HostAlias
}

// Outcome is how a runner Job ended.
type Outcome struct {
	// Job is the Job's name.
	Job string
	// Adopted is set when the Job was already there: started by a leader
	// before this one, or by an earlier call for the same run.
	Adopted bool
	// Succeeded is set when the runner exited 0.
	Succeeded bool
	// ExitCode is the runner container's exit code (-1 when it never ran).
	ExitCode int
	// Reason is Kubernetes' word on a Job or container that failed
	// (DeadlineExceeded, OOMKilled, Error...).
	Reason string
	// Result is the outcome the runner wrote as the last line of its log
	// (a line with the one key OutcomeKey), when the log was read to its
	// end; none when the runner pod ended without one (deleted, evicted,
	// past its deadline, or never started).
	Result []byte
	// Message is the runner's termination message: its short outcome.
	Message []byte
}

// Launcher starts and follows runner Jobs.
type Launcher struct {
	cfg    Config
	client kubernetes.Interface
	// slotMu makes counting the Jobs in flight and creating one a single
	// step for this process.
	slotMu sync.Mutex
}

// New returns a Launcher reaching the cluster through cfg.Kubeconfig.
func New(cfg Config) (*Launcher, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = cfg.Kubeconfig
	rc, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("runner jobs: kubernetes client: %w", err)
	}
	// One controller follows many runs at once: more than client-go's
	// default of 5 requests a second.
	rc.QPS, rc.Burst = 50, 100
	// A request waits --kube-timeout at most for its answer to start; a
	// runner's log stream then flows as long as it does.
	rc.WrapTransport = deadline.WrapKube(rc.WrapTransport)
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, fmt.Errorf("runner jobs: kubernetes client: %w", err)
	}
	if cfg.Image == "" {
		if cfg.Image, err = ownImage(cs); err != nil {
			return nil, err
		}
	}
	return newLauncher(cfg, cs), nil
}

// ownImage is the image of the pod this process runs in.
func ownImage(cs kubernetes.Interface) (string, error) {
	ns, name := os.Getenv("POD_NAMESPACE"), os.Getenv("POD_NAME")
	if ns == "" || name == "" {
		return "", errors.New("runner jobs: no image: give strata's image (--runner-image), or run strata in a pod with $POD_NAMESPACE and $POD_NAME set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("runner jobs: read this pod's image: %w", err)
	}
	return pod.Spec.Containers[0].Image, nil
}

func newLauncher(cfg Config, cs kubernetes.Interface) *Launcher {
	if cfg.MaxRunners <= 0 {
		cfg.MaxRunners = DefaultMaxRunners
	}
	if cfg.PriorityClass == "" {
		cfg.PriorityClass = DefaultPriorityClass
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.UnreadTTL <= 0 {
		cfg.UnreadTTL = DefaultUnreadTTL
	}
	if cfg.RefusedTimeout <= 0 {
		cfg.RefusedTimeout = DefaultRefusedTimeout
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Launcher{cfg: cfg, client: cs}
}

// Run runs spec as a Job, or adopts the Job already running it, and
// returns its outcome once it finished. The runner's log lines go to
// Config.Logger as they come. An error means the outcome could not be
// had: the Job may still run (a cancelled ctx leaves it running, for the
// next leader to adopt). The finished Job stays, unread, until Release:
// the caller releases it once it recorded the outcome.
func (l *Launcher) Run(ctx context.Context, spec Spec) (Outcome, error) {
	r := &run{spec: spec, name: Name(spec.Object, spec.Run)}
	for _, s := range []func(context.Context, *run) error{
		l.adopt,
		l.start,
		l.follow,
		l.wait,
	} {
		if err := s(ctx, r); err != nil {
			return r.out, fmt.Errorf("runner job %s/%s: %w", spec.Namespace, r.name, err)
		}
	}
	return r.out, nil
}

// run is one Run's state, filled in step by step.
type run struct {
	spec Spec
	// name is the Job's name; adopted is set when it existed already.
	name    string
	adopted bool
	// pod is the Job's pod, once known.
	pod string
	out Outcome
}
