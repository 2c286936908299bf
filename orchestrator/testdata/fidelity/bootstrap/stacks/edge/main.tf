variable "environment" {
  type = string
}

variable "network_id" {
  type = string
}

variable "cidr" {
  type = string
}

resource "terraform_data" "edge" {
  input = "${var.environment}@${var.network_id}/${var.cidr}"
}

output "network_id" {
  value = var.network_id
}
