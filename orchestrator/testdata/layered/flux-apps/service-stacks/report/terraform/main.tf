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

resource "terraform_data" "report" {
  input = var.client_id
}

output "ok" {
  value = true
}
