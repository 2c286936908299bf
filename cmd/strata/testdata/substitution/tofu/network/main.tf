variable "domain" { type = string }
resource "terraform_data" "zone" {
  input = var.domain
}
