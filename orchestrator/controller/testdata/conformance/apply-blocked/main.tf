# Stands for the specs' module whose ConfigMap already exists: its apply
# fails while the file var.blocker exists, and succeeds once it is gone.
variable "blocker" {
  type = string
}

resource "terraform_data" "example" {
  input = "api_host"

  provisioner "local-exec" {
    command = "test ! -e '${var.blocker}'"
  }
}
