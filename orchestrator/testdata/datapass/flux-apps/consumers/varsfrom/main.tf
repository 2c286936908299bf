variable "network_id" {
  type = string
}

# A number output reaches a number variable: tofu converts its text.
variable "instance_count" {
  type = number
}

# A map or list output reaches the stack as its JSON text, as under the
# Tofu Controller: decode it.
variable "tags" {
  type = string
}

variable "subnets" {
  type = string
}

variable "enabled" {
  type = bool
}

variable "region" {
  type = string
}

variable "username" {
  type = string
}

variable "password" {
  type      = string
  sensitive = true
}

# A sensitive output of the writer: the reader marks it sensitive too.
variable "token" {
  type      = string
  sensitive = true
}

variable "ghost" {
  type = string
}

resource "terraform_data" "app" {
  input = "${var.network_id}/${var.region}/${var.instance_count}"
}

output "network_id" {
  value = var.network_id
}

output "next_count" {
  value = var.instance_count + 1
}

output "tags" {
  value = jsondecode(var.tags)
}

output "first_subnet" {
  value = jsondecode(var.subnets)[0]
}

output "disabled" {
  value = !var.enabled
}

output "region" {
  value = var.region
}

output "username" {
  value = var.username
}

output "password_length" {
  value = length(nonsensitive(var.password))
}

output "ghost" {
  value = var.ghost
}

output "token_length" {
  value = length(nonsensitive(var.token))
}
