resource "terraform_data" "thing" {
  input = var.undeclared
}
