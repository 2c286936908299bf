output "vpc_id" {
  value = "vpc-123"
}

output "count" {
  value = 3
}

output "enabled" {
  value = true
}

output "subnets" {
  value = ["a", "b"]
}

output "tags" {
  value = { team = "core", "env" = "dev<&>" }
}

output "nested" {
  value = { list = [1, 2], obj = { k = "v" } }
}

output "token" {
  value     = "s3cret"
  sensitive = true
}
