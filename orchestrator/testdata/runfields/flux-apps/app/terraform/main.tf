variable "environment" {
  type = string
}

resource "terraform_data" "a" {
  input = "a-${var.environment}"
}

resource "terraform_data" "b" {
  input = "b-${var.environment}"
}

locals {
  # Where spec.fileMappings put their files, when they do.
  home_file      = pathexpand("~/.strata-test/token")
  workspace_file = "${path.module}/conf/token"
}

output "workspace" {
  value = terraform.workspace
}

output "home_file_sha" {
  value = fileexists(local.home_file) ? sha256(file(local.home_file)) : ""
}

output "workspace_file_sha" {
  value = fileexists(local.workspace_file) ? sha256(file(local.workspace_file)) : ""
}
