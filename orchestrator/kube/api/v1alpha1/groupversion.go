package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Version is the API version; the group and kind are v1alpha2's.
const Version = "v1alpha1"

// GroupVersionResource is the resource v1alpha1 Terraform objects are
// served as.
var GroupVersionResource = schema.GroupVersionResource{Group: "infra.contrib.fluxcd.io", Version: Version, Resource: "terraforms"}
