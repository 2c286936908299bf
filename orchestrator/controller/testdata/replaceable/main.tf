# A resource that a change of var.size replaces: a destroy, which the
# default policy holds for a person.
variable "size" {
  type = string
}

resource "terraform_data" "disk" {
  triggers_replace = var.size
  input            = { size = var.size }
}

output "size" {
  value = terraform_data.disk.output.size
}
