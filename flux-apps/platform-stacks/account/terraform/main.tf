# The account layer: one cloud account per client environment. Its ID and
# admin token are derived deterministically, so the demo needs no cloud.
locals {
  account_id  = substr(sha1("${var.client_id}/${var.environment}"), 0, 12)
  admin_token = sha256("admin/${var.client_id}/${var.environment}/${local.account_id}")
}

resource "terraform_data" "account" {
  input = {
    app_version       = var.app_version
    account_id        = local.account_id
    client_id         = var.client_id
    environment       = var.environment
    environment_class = var.environment_class
    region            = var.region
    domain            = var.domain
  }
}
