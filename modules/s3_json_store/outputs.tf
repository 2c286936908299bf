output "key" {
  description = "The contract's key, <path>/<name>: what strata and External Secrets' remoteRef.key name it by."
  value       = local.key
}

output "bucket" {
  description = "The bucket that holds the document."
  value       = aws_s3_object.this.bucket
}

output "object_key" {
  description = "The object that holds the document: <path without its leading \"/\">/<name>.json."
  value       = aws_s3_object.this.key
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
