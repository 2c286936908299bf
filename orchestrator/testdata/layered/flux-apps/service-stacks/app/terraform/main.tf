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

variable "generation" {
  type        = string
  description = "Changing it replaces the app: a change policy holds for a person."
}

variable "size" {
  type        = string
  description = "Changing it updates the app in place."
}

resource "terraform_data" "app" {
  input = {
    cluster = var.cluster.public.name
    vpc     = var.cluster.public.vpc_id
    size    = var.size
  }
  triggers_replace = [var.generation]
}

output "url" {
  value = "https://app.${var.cluster.public.name}.example"
}
