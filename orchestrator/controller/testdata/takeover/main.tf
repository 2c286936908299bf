# A module the Tofu Controller applied before strata took over: a
# resource whose id tells a re-creation, a string output and an object
# output (written with a "__type" key).
variable "size" {
  type = string
}

resource "terraform_data" "disk" {
  input = { size = var.size }
}

output "size" {
  value = terraform_data.disk.output.size
}

output "spec" {
  value = { size = terraform_data.disk.output.size, replicas = 2 }
}
