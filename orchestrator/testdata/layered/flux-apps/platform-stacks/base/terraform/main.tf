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

resource "terraform_data" "account" {
  input = {
    client  = var.client_id
    env     = var.environment
    version = var.app_version
  }
}

output "account_id" {
  value = substr(sha1("${var.client_id}/${var.environment}"), 0, 12)
}

output "admin_token" {
  value     = "SENTINEL-${sha256(var.client_id)}"
  sensitive = true
}
