variable "network" {
  type = any
}

variable "size" {
  type = string
}

variable "password" {
  type      = string
  sensitive = true
}

variable "app_version" {
  type = string
}

resource "terraform_data" "app" {
  input = "${var.network.public.vpc_id}/${var.size}/${var.app_version}"
}

resource "terraform_data" "secret" {
  input = sensitive(var.password)
}
