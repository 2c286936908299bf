# A stack whose outputs are of each kind the Tofu Controller writes to an
# output Secret differently: a string as its text, a number, a list and a
# map as their JSON beside a "<name>.type" key.
output "name" {
  value = "acme-dev"
}

output "size" {
  value = 3
}

output "zones" {
  value = tolist(["eu-west-1a", "eu-west-1b"])
}

output "tags" {
  value = tomap({ team = "platform", env = "dev" })
}
