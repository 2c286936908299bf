variable "name" {
  type    = string
  default = "network"
}

resource "terraform_data" "this" {
  input = var.name
}

output "name" {
  value = terraform_data.this.output
}
