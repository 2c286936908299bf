# hello-world at a later revision: its output changed.
output "hello_world" {
  value = "Hello, World 2222222!"
}
