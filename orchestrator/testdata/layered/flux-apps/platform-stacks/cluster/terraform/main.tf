variable "client_id" {
  type = string
}

variable "environment" {
  type = string
}

variable "app_version" {
  type    = string
  default = "0.0.0"
}

variable "net" {
  type = any
}

resource "terraform_data" "cluster" {
  input = {
    vpc = var.net.public.vpc_id
  }
}

output "name" {
  value = "${var.client_id}-${var.environment}"
}

output "vpc_id" {
  value = var.net.public.vpc_id
}
