output "vpc_id" {
  description = "The VPC's ID."
  value       = terraform_data.network.output.vpc_id
}

output "cidr" {
  description = "The VPC's address range."
  value       = terraform_data.network.output.cidr
}

output "subnet_ids" {
  description = "The IDs of the VPC's subnets."
  value       = terraform_data.network.output.subnet_ids
}
