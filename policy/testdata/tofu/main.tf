variable "release" {
  type        = string
  description = "Changing it replaces terraform_data.release."
}

variable "settings" {
  type        = string
  description = "Changing it updates terraform_data.settings in place."
}

resource "terraform_data" "release" {
  triggers_replace = var.release
}

resource "terraform_data" "settings" {
  input = var.settings
}

output "release_id" {
  value = terraform_data.release.id
}

output "settings" {
  value = terraform_data.settings.output
}
