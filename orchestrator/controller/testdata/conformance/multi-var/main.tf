# Three variables, joined into one output.
variable "region" {
  type = string
}

variable "environment" {
  type = string
}

variable "cluster_name" {
  type = string
}

output "cluster_id" {
  value = "${var.environment}-${var.region}-${var.cluster_name}"
}
