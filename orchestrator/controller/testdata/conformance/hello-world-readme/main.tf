# The module of most of the Tofu Controller's specs: no resource, one
# string output.
output "hello_world" {
  value = "Hello, World!"
}
