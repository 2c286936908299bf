variable "region" {
  type = string
}

variable "environment" {
  type = string
}

resource "terraform_data" "network" {
  input = "${var.environment}-${var.region}"
}

output "vpc_id" {
  value = "vpc-${var.environment}"
}
