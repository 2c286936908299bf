# Three string variables, from vars and varsFrom, in one JSON output.
variable "cluster_name" {
  type = string
}

variable "access_key" {
  type = string
}

variable "secret_key" {
  type = string
}

output "json_blob" {
  value = jsonencode({
    Cluster   = var.cluster_name
    AccessKey = var.access_key
    SecretKey = var.secret_key
  })
}
