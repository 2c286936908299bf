# The cluster layer: a Kubernetes cluster in the network's subnets.
locals {
  endpoint = "https://k8s.${var.domain}"
  ca_data  = base64encode(sha256("ca/${var.name}/${var.network.public.vpc_id}"))
}

resource "terraform_data" "cluster" {
  input = {
    app_version        = var.app_version
    name               = var.name
    endpoint           = local.endpoint
    kubernetes_version = var.kubernetes_version
    vpc_id             = var.network.public.vpc_id
    subnet_ids         = var.network.public.subnet_ids
  }
}
