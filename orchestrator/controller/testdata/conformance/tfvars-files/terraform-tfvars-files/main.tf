# A required variable, set by a .tfvars file of the source.
variable "text" {
  type = string
}

output "hello_world" {
  value = var.text
}
