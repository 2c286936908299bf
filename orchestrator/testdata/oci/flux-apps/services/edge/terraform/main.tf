variable "client_id" {
  type = string
}

resource "terraform_data" "this" {
  input = var.client_id
}

output "client" {
  value = var.client_id
}
