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

variable "cidr" {
  type = string
}

variable "base" {
  type = any
}

resource "terraform_data" "vpc" {
  input = {
    account = var.base.public.account_id
    cidr    = var.cidr
  }
}

output "vpc_id" {
  value = "vpc-${substr(sha1(var.cidr), 0, 8)}"
}

output "cidr" {
  value = var.cidr
}
