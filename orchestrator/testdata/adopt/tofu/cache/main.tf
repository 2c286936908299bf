variable "size" {
  type = string
}
resource "terraform_data" "cache" {
  input = var.size
}
