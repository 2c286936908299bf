output "name" {
  description = "The parameter's name, <path>/<name>: the contract's key, External Secrets' remoteRef.key."
  value       = aws_ssm_parameter.this.name
}

output "arn" {
  description = "The parameter's ARN, for IAM policies of the stacks and services that read it."
  value       = aws_ssm_parameter.this.arn
}

output "document" {
  description = "The document as written: its JSON text."
  value       = local.json
  sensitive   = true
}

output "values" {
  description = "The document as written, as an object: installed, version, stack, updatedAt, public and private."
  value       = local.document
  sensitive   = true
}
