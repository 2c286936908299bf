output "account_id" {
  description = "The account's ID."
  value       = terraform_data.account.output.account_id
}

output "region" {
  description = "The region the environment runs in."
  value       = terraform_data.account.output.region
}

output "domain" {
  description = "The environment's DNS domain."
  value       = terraform_data.account.output.domain
}

output "admin_token" {
  description = "The account's admin token; private in the contract."
  value       = local.admin_token
  sensitive   = true
}
