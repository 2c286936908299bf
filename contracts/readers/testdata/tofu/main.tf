resource "terraform_data" "old" {
  input = var.network.public.replaced_by_main_tofu
}
