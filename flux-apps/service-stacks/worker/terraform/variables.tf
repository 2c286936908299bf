variable "app_version" {
  type        = string
  description = "The version of this stack's code, as strata resolved it from _versions.yaml."
  default     = "0.0.0"
}

variable "cluster" {
  type        = any
  description = "The cluster contract: the JSON document the cluster stack publishes ({installed, version, stack, updatedAt, public, private})."
}

variable "queue" {
  type        = string
  description = "The name of the worker's job queue."
}

variable "concurrency" {
  type        = number
  description = "How many jobs a worker runs at once."
  default     = 4
}
