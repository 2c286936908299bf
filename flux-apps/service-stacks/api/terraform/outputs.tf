output "url" {
  description = "The API's public URL."
  value       = terraform_data.api.output.url
}

output "replicas" {
  description = "How many replicas of the API run."
  value       = terraform_data.api.output.replicas
}

output "database_endpoint" {
  description = "The API database's endpoint."
  value       = terraform_data.api.output.database_endpoint
}

output "database_password" {
  description = "The API database's password; private in the contract."
  value       = local.database_password
  sensitive   = true
}
