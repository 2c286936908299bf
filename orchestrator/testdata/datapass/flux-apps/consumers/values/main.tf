variable "values" {
  type = any
}

resource "terraform_data" "app" {
  input = var.values.vpc
}

output "values" {
  value = var.values
}
