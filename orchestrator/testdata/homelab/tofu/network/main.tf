variable "region" { type = string }
variable "domain" { type = string }
resource "terraform_data" "vpc" {
  input = "${var.region}/${var.domain}"
}
output "vpc_id" { value = terraform_data.vpc.id }
output "zone" { value = var.domain }
