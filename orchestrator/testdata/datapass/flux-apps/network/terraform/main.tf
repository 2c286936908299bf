resource "terraform_data" "network" {
  input = "10.0.0.0/16"
}

output "vpc_id" {
  value = "vpc-0a1b"
}

output "count" {
  value = 3
}

output "tags" {
  value = { team = "core", env = "dev" }
}

output "subnets" {
  value = ["subnet-a", "subnet-b"]
}

output "enabled" {
  value = true
}

output "token" {
  value     = "SENTINEL-network-token"
  sensitive = true
}

output "unpublished" {
  value = "not in writeOutputsToSecret.outputs"
}
