output "name" {
  description = "The cluster's name."
  value       = terraform_data.cluster.output.name
}

output "endpoint" {
  description = "The cluster's API endpoint."
  value       = terraform_data.cluster.output.endpoint
}

output "ca_data" {
  description = "The cluster's CA certificate; private in the contract."
  value       = local.ca_data
  sensitive   = true
}
