package statefile

// LockInfoAnnotation is the annotation of the kubernetes backend's Lease
// that holds the lock info, as tofu writes it.
const LockInfoAnnotation = "app.terraform.io/lock-info"

// KubernetesSecretName is the Secret that keeps the kubernetes backend's
// state of workspace ("" is default): tfstate-<workspace>-<secret suffix>.
func KubernetesSecretName(workspace, suffix string) string {
	if workspace == "" {
		workspace = "default"
	}
	return "tfstate-" + workspace + "-" + suffix
}

// KubernetesLeaseName is the Lease that locks that state:
// lock-tfstate-<workspace>-<secret suffix>.
func KubernetesLeaseName(workspace, suffix string) string {
	return "lock-" + KubernetesSecretName(workspace, suffix)
}

// LeaseLock is the lock a kubernetes backend's Lease records: held while
// its holderIdentity is set, its info in LockInfoAnnotation. It reports
// false when the Lease holds no lock.
func LeaseLock(holder string, annotations map[string]string) (Lock, bool, error) {
	if holder == "" {
		return Lock{}, false, nil
	}
	info, ok := annotations[LockInfoAnnotation]
	if !ok {
		// Held without its info: the ID is the holder's.
		return Lock{ID: holder, Held: true}, true, nil
	}
	l, err := ParseLock([]byte(info))
	if err != nil {
		return Lock{}, false, err
	}
	l.Held = true
	return l, true, nil
}
