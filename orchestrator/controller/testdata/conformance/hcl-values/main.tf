# spec.values, as the object variable values, into one JSON output.
variable "values" {
  type = object({
    cluster_name = optional(string)
    access_key   = optional(string)
    secret_key   = optional(string)
  })
}

output "values_json_blob" {
  value = jsonencode({
    Values_Cluster   = var.values.cluster_name
    Values_AccessKey = var.values.access_key
    Values_SecretKey = var.values.secret_key
  })
}
