variable "app_version" {
  type        = string
  description = "The version of this stack's code, as strata resolved it from _versions.yaml."
  default     = "0.0.0"
}

variable "cluster" {
  type        = any
  description = "The cluster contract: the JSON document the cluster stack publishes ({installed, version, stack, updatedAt, public, private})."
}

variable "client_id" {
  type        = string
  description = "The client (init clientId)."
}

variable "environment" {
  type        = string
  description = "The environment's name (init environment)."
}

variable "domain" {
  type        = string
  description = "The environment's DNS domain."
}

variable "replicas" {
  type        = number
  description = "How many replicas of the API run."
  default     = 2
}
