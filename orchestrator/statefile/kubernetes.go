package statefile

// LockInfoAnnotation is the annotation of the kubernetes backend's Lease
// that holds the lock info, as tofu writes it.
const LockInfoAnnotation = "app.terraform.io/lock-info"

// KubernetesLeaseName is the Lease that locks the kubernetes backend's
// state of workspace: lock-tfstate-<workspace>-<secret suffix>.
func KubernetesLeaseName(workspace, suffix string) string {
	if workspace == "" {
		workspace = "default"
	}
	return "lock-tfstate-" + workspace + "-" + suffix
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
