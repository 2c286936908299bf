# Stands for the specs' artifact that cannot be used: every plan fails,
# for want of a variable no one gives.
variable "never_given" {
  type = string
}

output "hello_world" {
  value = var.never_given
}
