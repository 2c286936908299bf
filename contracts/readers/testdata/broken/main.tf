resource "terraform_data" "x" {
  input = var.network.public.
}
