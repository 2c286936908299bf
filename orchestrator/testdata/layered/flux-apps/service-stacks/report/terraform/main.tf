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

variable "configuration" {
  type        = any
  description = "Every contract whose name matches (base|net), by name."
}

resource "terraform_data" "report" {
  input = {
    client = var.client_id
    vpc    = var.configuration["net"].public.vpc_id
  }
}

output "sources" {
  value = sort(keys(var.configuration))
}
