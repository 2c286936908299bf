# A stack whose provider comes from the provider mirror.
terraform {
  required_providers {
    strata = {
      source  = "strata-iac/strata"
      version = "0.1.0"
    }
  }
}

variable "greeting" {
  type = string
}

resource "strata_echo" "hello" {
  input = var.greeting
}

output "echo" {
  value = strata_echo.hello.output
}
