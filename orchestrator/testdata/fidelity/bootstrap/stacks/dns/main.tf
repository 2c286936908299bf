variable "values" {
  type = object({
    zone = string
    vpc  = string
    cidr = string
  })
}

resource "terraform_data" "dns" {
  input = "${var.values.zone}/${var.values.vpc}"
}

output "zone" {
  value = var.values
}
