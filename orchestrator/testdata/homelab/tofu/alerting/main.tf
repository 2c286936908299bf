resource "terraform_data" "rule" {
  input = "cpu"
}
