variable "size" {
  type = string
}

variable "replicas" {
  type = string
}

variable "owner" {
  type = string
}

resource "terraform_data" "app" {
  input = "${var.owner}: ${var.replicas} x ${var.size}"
}

output "summary" {
  value = "${var.owner}: ${var.replicas} x ${var.size}"
}
