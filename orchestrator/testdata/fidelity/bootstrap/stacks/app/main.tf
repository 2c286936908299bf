variable "environment" {
  type = string
}

variable "network" {
  type = any
}

resource "terraform_data" "app" {
  input = "${var.environment}@${var.network.public.vpc_id}"
}

output "endpoint" {
  value = "https://app.${var.environment}.example"
}
