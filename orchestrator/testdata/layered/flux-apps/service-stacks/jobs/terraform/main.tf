variable "client_id" {
  type = string
}

variable "environment" {
  type = string
}

variable "app_version" {
  type    = string
  default = "0.0.0"
}

variable "cluster" {
  type = any
}

variable "fail" {
  type = string
}

resource "terraform_data" "jobs" {
  input = {
    cluster = var.cluster.public.name
  }

  lifecycle {
    precondition {
      # Flux substitutes the built YAML, where ${jobsFail} = yes becomes the
      # YAML boolean true: either means fail.
      condition     = !contains(["yes", "true"], var.fail)
      error_message = "jobs was told to fail."
    }
  }
}

output "queue" {
  value = "jobs-${var.cluster.public.name}"
}
