# Each resource's provisioner sleeps, so that strata can be killed or
# stopped in the middle of the apply, then appends one line to the file
# $STRATA_TEST_CREATES names: a resource created twice leaves two lines.
# Each also leaves a process behind that must end with its tofu.
variable "resources" {
  type = number
}

resource "terraform_data" "crash" {
  count = var.resources
  input = count.index

  provisioner "local-exec" {
    command = "sleep 600 >/dev/null 2>&1 & sleep ${1 + count.index}; echo ${count.index} >> \"$STRATA_TEST_CREATES\""
  }
}

output "created" {
  value = terraform_data.crash[*].id
}
