locals {
  ca_data = base64encode(sha256("ca/${var.network.public.vpc_id}"))
  zone    = var.network["public"]["zone"]
  dynamic = var.network.public[var.which].id
}

resource "terraform_data" "cluster" {
  input = {
    subnet_ids = var.network.public.subnet_ids
    first      = var.network.public.subnet_ids[0]
    token      = var.network.private.token
    version    = var.network.version
    names      = [for s in var.network.public.subnets : s.name]
    nat        = var.network.public.nats[*].id
  }
}

module "dns" {
  source  = "./dns"
  network = var.network
}
