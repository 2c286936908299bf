variable "name" {
  type = string
}

variable "network" {
  type = any
}

resource "terraform_data" "app" {
  input = "${var.name}@${var.network.public.vpc_id}"
}

output "endpoint" {
  value = "https://${var.name}.example"
}
