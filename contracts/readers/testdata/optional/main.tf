locals {
  zone    = try(var.network.public.zone, "a")
  has_nat = can(var.network.public.nat_id)
  vpc     = var.network.public.vpc_id
}
