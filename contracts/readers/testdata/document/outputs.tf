output "name" {
  value = var.name
}

output "peer" {
  value = lookup(var.network.public, "peer", null)
}
