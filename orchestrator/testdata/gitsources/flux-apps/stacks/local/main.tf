resource "terraform_data" "this" {
  input = "local"
}

output "where" {
  value = terraform_data.this.output
}
