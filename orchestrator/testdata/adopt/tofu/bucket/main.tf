variable "token" {
  type      = string
  sensitive = true
}
resource "terraform_data" "bucket" {
  input = length(var.token)
}
