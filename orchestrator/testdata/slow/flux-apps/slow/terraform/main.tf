variable "sleep_seconds" {
  type = string
}

# Creating it takes sleep_seconds: long enough to be interrupted.
resource "terraform_data" "slow" {
  input = var.sleep_seconds

  provisioner "local-exec" {
    command = "sleep ${var.sleep_seconds}"
  }
}
