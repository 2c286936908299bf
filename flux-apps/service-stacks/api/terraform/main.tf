# The api service's infrastructure: its database and its public URL on the
# cluster.
locals {
  url               = "https://api.${var.domain}"
  database_endpoint = "api-db.${var.cluster.public.name}.internal"
  database_password = substr(sha256("database/${var.client_id}/${var.environment}"), 0, 24)
}

resource "terraform_data" "api" {
  input = {
    app_version       = var.app_version
    cluster           = var.cluster.public.name
    cluster_endpoint  = var.cluster.public.endpoint
    cluster_ca_sha256 = sha256(var.cluster.private.ca_data)
    url               = local.url
    replicas          = var.replicas
    database_endpoint = local.database_endpoint
  }
}
