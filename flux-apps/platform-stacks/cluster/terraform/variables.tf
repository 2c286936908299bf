variable "app_version" {
  type        = string
  description = "The version of this stack's code, as strata resolved it from _versions.yaml."
  default     = "0.0.0"
}

variable "network" {
  type        = any
  description = "The network contract: the JSON document the network stack publishes ({installed, version, stack, updatedAt, public, private})."
}

variable "name" {
  type        = string
  description = "The cluster's name."
}

variable "domain" {
  type        = string
  description = "The environment's DNS domain."
}

variable "kubernetes_version" {
  type        = string
  description = "The cluster's Kubernetes version."
}
