variable "region" {
  type = string
}

variable "cidr" {
  type = string
}

resource "terraform_data" "network" {
  input = "${var.region}/${var.cidr}"
}

output "vpc_id" {
  value = "vpc-${substr(sha1(var.cidr), 0, 8)}"
}

output "cidr" {
  value = var.cidr
}
