package controller

import (
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// What the Tofu Controller says of an object whose retries ran out
// (spec.remediation.retries).
const (
	ReasonRetryLimitReached = "RetryLimitReached"
	retryLimitMessage       = "Resource reached maximum number of retries."
)

// changedSince reports whether the object's spec (its generation) or its
// source's revision rev changed since its status was last written: the
// Tofu Controller then counts its failures from zero again.
func changedSince(tf *v1alpha2.Terraform, rev string) bool {
	return tf.Generation != tf.Status.ObservedGeneration ||
		(rev != "" && tf.Status.LastAttemptedRevision != "" && rev != tf.Status.LastAttemptedRevision)
}

// exhausted reports whether the object has used up its
// spec.remediation.retries: as many failed reconciles in a row as they
// allow, with neither its spec nor its source's revision rev changed
// since. The Tofu Controller runs it no more until one of them changes.
func exhausted(tf *v1alpha2.Terraform, rev string) bool {
	r := tf.Spec.Remediation
	if r == nil || r.Retries <= 0 || changedSince(tf, rev) {
		return false
	}
	return tf.Status.ReconciliationFailures >= r.Retries
}

// markStalled sets the Stalled condition when the object's retries are
// used up (RetryLimitReached, the Tofu Controller's words), and removes
// it otherwise.
func markStalled(tf *v1alpha2.Terraform) {
	r := tf.Spec.Remediation
	if r == nil || r.Retries <= 0 || tf.Status.ReconciliationFailures < r.Retries {
		apimeta.RemoveStatusCondition(&tf.Status.Conditions, conditionStalled)
		return
	}
	setCondition(tf, conditionStalled, metav1.ConditionTrue, ReasonRetryLimitReached, retryLimitMessage)
}
