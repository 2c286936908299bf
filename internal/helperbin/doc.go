// Package helperbin finds the programs strata runs beside itself:
// strata-sops, which holds the sops library, and strata-kube, which holds
// Kubernetes' client libraries and runs cluster mode. Each is looked for
// where its environment variable says, else beside strata's own
// executable (symbolic links resolved), else on $PATH; when it is in none
// of them, the error says where strata looked and how to install it.
package helperbin
