output "values" {
  description = "The selected documents, decoded, by name: values[\"base\"].public.domain, values[\"foo\"].private.database.endpoint."
  value       = local.values
  sensitive   = true
}

output "public_values" {
  description = "The public part of each selected document, by name: public_values[\"base\"].domain. Not sensitive: public values are public by contract."
  value       = local.public_values
}
