variable "environment" {
  type = string
}

variable "api_token" {
  type      = string
  sensitive = true
}

variable "network" {
  type = any
}

resource "terraform_data" "app" {
  input = "${var.environment}@${var.network.public.vpc_id}"
}

resource "terraform_data" "credentials" {
  input = sha256(var.api_token)
}

output "endpoint" {
  value = "https://app.${var.environment}.example"
}
