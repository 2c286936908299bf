variable "client" {
  type = string
}

variable "environment" {
  type = string
}

variable "app_version" {
  type = string
}

resource "terraform_data" "vpc" {
  input = "vpc-${var.client}-${var.environment}-${var.app_version}"
}

output "vpc_id" {
  value = terraform_data.vpc.output
}
