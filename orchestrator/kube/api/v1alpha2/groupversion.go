package v1alpha2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group, Version and the resource, as the Tofu Controller registers them.
const (
	Group    = "infra.contrib.fluxcd.io"
	Version  = "v1alpha2"
	Kind     = "Terraform"
	Resource = "terraforms"
)

// GroupVersion is the API group and version of Terraform objects.
var GroupVersion = schema.GroupVersion{Group: Group, Version: Version}

// GroupVersionResource is the resource Terraform objects are served as.
var GroupVersionResource = GroupVersion.WithResource(Resource)

// AddToScheme registers Terraform and TerraformList in a scheme.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Terraform{}, &TerraformList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
