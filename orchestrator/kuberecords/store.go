package kuberecords

import (
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/records"
)

// DefaultKeep is how many runs of each stack are kept when Config.Keep is
// zero.
const DefaultKeep = records.DefaultKeep

// Config says which cluster and namespace keep the records.
type Config struct {
	// Kubeconfig is the kubeconfig file; empty, the in-cluster
	// configuration (the pod's service account).
	Kubeconfig string
	// Namespace keeps the records; empty, the kubeconfig context's, else
	// the pod's, else "default".
	Namespace string
	// Keep is how many runs of each stack are kept (DefaultKeep when
	// zero); the newest good apply is kept beyond them.
	Keep int
	// Dir is a local directory where held plans are written out for tofu
	// and people to read (Held.Dir). Hold and HeldPlan need it; without
	// it, HeldPlans lists plans without their files.
	Dir string
	// Writer names this process in the runs it begins (say, its pod
	// name); the leader package's Identity is a good one.
	Writer string
}

// Store keeps history, held plans and approvals as objects in one
// namespace: the records engine over its ConfigMaps and Secrets. It is
// safe for any number of goroutines and of processes.
type Store struct {
	*records.Records
	objects *objects
}

// New returns a Store for the cluster and namespace cfg names. It reads
// the kubeconfig (or the in-cluster configuration) but does not contact
// the API server.
func New(cfg Config) (*Store, error) {
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: cfg.Kubeconfig}
	kc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	rest, err := kc.ClientConfig()
	if err != nil {
		if cfg.Kubeconfig == "" {
			return nil, fmt.Errorf("cluster records: no kubeconfig given and not running in a cluster: %w", err)
		}
		return nil, fmt.Errorf("cluster records: read kubeconfig %s: %w", cfg.Kubeconfig, err)
	}
	if cfg.Namespace == "" {
		if cfg.Namespace, _, err = kc.Namespace(); err != nil || cfg.Namespace == "" {
			cfg.Namespace = "default"
		}
	}
	rest.UserAgent = "strata"
	// A reconcile reads and writes a few records per stack: client-go's
	// default of 5 requests a second would hold it up.
	rest.QPS, rest.Burst = 50, 100
	rest.WrapTransport = deadline.WrapKube(rest.WrapTransport)
	client, err := kubernetes.NewForConfig(rest)
	if err != nil {
		return nil, fmt.Errorf("cluster records: client for %s: %w", rest.Host, err)
	}
	o := &objects{client: client, namespace: cfg.Namespace, writer: cfg.Writer}
	recs, err := records.New(o, records.Config{Keep: cfg.Keep, Dir: cfg.Dir})
	if err != nil {
		return nil, fmt.Errorf("cluster records: %w", err)
	}
	return &Store{Records: recs, objects: o}, nil
}

// Namespace is the namespace that keeps the records.
func (s *Store) Namespace() string { return s.objects.namespace }
