variable "app_version" {
  type        = string
  description = "The version of this stack's code, as strata resolved it from _versions.yaml."
  default     = "0.0.0"
}

variable "account" {
  type        = any
  description = "The account contract: the JSON document the account stack publishes ({installed, version, stack, updatedAt, public, private})."
}

variable "name" {
  type        = string
  description = "The network's name."
}

variable "cidr" {
  type        = string
  description = "The network's address range."
}

variable "subnet_count" {
  type        = number
  description = "How many subnets to carve out of the range."
  default     = 3
}
