resource "terraform_data" "service" {
  input = {
    vpc_id  = var.network.vpc_id
    subnets = var.subnet_ids
    all     = jsonencode(var.network)
    other   = var.name
  }
}
