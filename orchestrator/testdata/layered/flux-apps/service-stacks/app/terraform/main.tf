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

variable "cluster" {
  type = any
}

resource "terraform_data" "app" {
  input = {
    cluster = var.cluster.public.name
    vpc     = var.cluster.public.vpc_id
  }
}

output "url" {
  value = "https://app.${var.cluster.public.name}.example"
}
