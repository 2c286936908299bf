# A service stack that reads the network's outputs as the Tofu Controller
# hands them over: through varsFrom, from the network's output Secret.
variable "vpc_id" {
  type = string
}

variable "subnet_ids" {
  type = string
}

resource "terraform_data" "app" {
  input = {
    vpc_id  = var.vpc_id
    subnets = jsondecode(var.subnet_ids)
  }
}

output "placed_in" {
  value = terraform_data.app.output.vpc_id
}
