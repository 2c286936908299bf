variable "name" {
  type = string
}

variable "replace_token" {
  type    = string
  default = "1"
}

resource "terraform_data" "thing" {
  input            = { name = var.name }
  triggers_replace = [var.replace_token]
}

output "name" {
  value = terraform_data.thing.output.name
}

output "secret" {
  value     = "s3cr3t-${var.name}"
  sensitive = true
}
