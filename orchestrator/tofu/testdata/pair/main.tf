resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

output "workspace" {
  value = terraform.workspace
}
