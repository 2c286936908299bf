# Each resource's provisioner sleeps, so that a test can stop strata in the
# middle of an apply, then appends a line to var.log: every creation leaves
# exactly one line, and a resource created twice leaves two.
variable "n" {
  type = number
}

variable "sleep" {
  type = number
}

variable "log" {
  type = string
}

variable "background" {
  type    = bool
  default = false
}

resource "terraform_data" "slow" {
  count = var.n
  input = count.index

  provisioner "local-exec" {
    # With background set, the provisioner also leaves a process behind
    # that would outlive tofu if nothing ended it.
    command = "${var.background ? "sleep 300 >/dev/null 2>&1 &" : ""} sleep ${var.sleep}; echo ${count.index} >> ${var.log}"
  }
}
