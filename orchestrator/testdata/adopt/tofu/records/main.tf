resource "terraform_data" "records" {
  input = "records"
}
