variable "client_id" {
  type = string
}

variable "base" {
  type = any
}

variable "app_version" {
  type    = string
  default = "0.0.0"
}

resource "terraform_data" "svc" {
  input = {
    client  = var.client_id
    version = var.app_version
    base    = var.base.public.client
    code    = "v1"
  }
}

output "app_version" {
  value = var.app_version
}
