variable "vpc" {
  type = string
}

variable "size" {
  type = number
}

variable "region" {
  type = string
}

variable "user" {
  type = string
}

variable "maybe" {
  type    = string
  default = "unset"
}

resource "terraform_data" "app" {
  input = "${var.vpc}/${var.region}"
}

output "vpc" {
  value = var.vpc
}

output "double_size" {
  value = var.size * 2
}

output "region" {
  value = var.region
}

output "user" {
  value = var.user
}

output "maybe" {
  value = var.maybe
}
