resource "terraform_data" "service" {
  input = {
    vpc_id   = var.values["network"].public.vpc_id
    cluster  = var.values.cluster.public.name
    any      = var.values[var.name].public.region
    unknown  = var.values.nonesuch.public.x
  }
}

output "everything" {
  value = keys(var.values)
}
