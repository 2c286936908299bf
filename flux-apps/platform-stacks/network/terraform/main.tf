# The network layer: a VPC in the account, with one subnet per zone.
locals {
  account_id   = var.account.public.account_id
  vpc_id       = "vpc-${substr(sha1("${local.account_id}/${var.cidr}"), 0, 17)}"
  subnet_cidrs = [for i in range(var.subnet_count) : cidrsubnet(var.cidr, 8, i)]
  subnet_ids   = [for c in local.subnet_cidrs : "subnet-${substr(sha1("${local.vpc_id}/${c}"), 0, 17)}"]
}

resource "terraform_data" "network" {
  input = {
    app_version  = var.app_version
    name         = var.name
    account_id   = local.account_id
    region       = var.account.public.region
    vpc_id       = local.vpc_id
    cidr         = var.cidr
    subnet_cidrs = local.subnet_cidrs
    subnet_ids   = local.subnet_ids
  }
}
