package tofucontroller

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// kubernetesBackend is the backend block the Tofu Controller writes for a
// spec.backendConfig without customConfiguration: its own kubernetes
// backend, the state in the Secret tfstate-<workspace>-<secretSuffix> of
// the object's namespace, reached in-cluster (inClusterConfig) or through
// the kubeconfig file configPath, with the labels on the Secret. "" when
// backendConfig sets none of these fields: strata's own backend then
// keeps the state, as for an object without backendConfig. A secretSuffix
// left empty is the object's name, the Tofu Controller's default suffix
// (where it writes an empty one, which the backend refuses).
func (b *builder) kubernetesBackend() string {
	bc := b.tf.Spec.BackendConfig
	if bc == nil || bc.Disable || bc.CustomConfiguration != "" ||
		bc.SecretSuffix == "" && !bc.InClusterConfig && bc.ConfigPath == "" && len(bc.Labels) == 0 {
		return ""
	}
	suffix := bc.SecretSuffix
	if suffix == "" {
		suffix = b.tf.Name
	}
	var sb strings.Builder
	sb.WriteString("backend \"kubernetes\" {\n")
	fmt.Fprintf(&sb, "  secret_suffix     = %s\n", strconv.Quote(suffix))
	fmt.Fprintf(&sb, "  in_cluster_config = %t\n", bc.InClusterConfig)
	if bc.ConfigPath != "" {
		fmt.Fprintf(&sb, "  config_path       = %s\n", strconv.Quote(bc.ConfigPath))
	}
	fmt.Fprintf(&sb, "  namespace         = %s\n", strconv.Quote(b.tf.Namespace))
	if len(bc.Labels) > 0 {
		sb.WriteString("  labels = {\n")
		for _, k := range slices.Sorted(maps.Keys(bc.Labels)) {
			fmt.Fprintf(&sb, "    %s = %s\n", strconv.Quote(k), strconv.Quote(bc.Labels[k]))
		}
		sb.WriteString("  }\n")
	}
	sb.WriteString("}")
	if !b.r.FromCluster() && !bc.InClusterConfig && bc.ConfigPath == "" {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.backendConfig keeps the state in the Kubernetes backend (Secret tfstate-<workspace>-%s in namespace %s), as the Tofu Controller does; without configPath or inClusterConfig, tofu reaches the cluster through KUBE_CONFIG_PATH",
			b.tf.ref(), b.tf.File, suffix, b.tf.Namespace))
	}
	return sb.String()
}
