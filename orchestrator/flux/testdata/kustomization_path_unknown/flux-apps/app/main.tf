resource "terraform_data" "this" {}
