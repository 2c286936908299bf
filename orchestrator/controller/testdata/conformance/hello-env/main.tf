# A greeting whose subject is a variable.
variable "subject" {
  type    = string
  default = "World"
}

output "hello_world" {
  value = "Hello, ${var.subject}!"
}
