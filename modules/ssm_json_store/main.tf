# The contract document, exactly as strata's stores write it:
# {"installed","version","stack","updatedAt","public","private"} at
# <path>/<name>.
locals {
  parts = compact([trim(var.path == "" ? "/configuration" : var.path, "/"), trim(var.name, "/")])
  key   = "/${join("/", local.parts)}"
  stack = coalesce(var.stack, trim(var.name, "/"))

  # What a consumer sees; updatedAt changes only when this does, as
  # strata's ContentHash leaves updatedAt out.
  content = {
    installed = var.data.installed
    version   = var.stack_version
    stack     = local.stack
    public    = var.data.public
    private   = var.data.private
  }
  updated_at = coalesce(var.updated_at, one(terraform_data.updated_at[*].input))
  document   = merge(local.content, { updatedAt = local.updated_at })
  json       = jsonencode(local.document)

  # The size in bytes of the UTF-8 JSON (length counts characters): every
  # 4 base64 characters are 3 bytes, less the padding.
  json_base64 = base64encode(local.json)
  size        = nonsensitive(length(local.json_base64) / 4 * 3 - length(regexall("=", local.json_base64)))

  # As strata's ssm store: a SecureString when there is private data, the
  # Advanced tier past 4096 bytes, nothing past 8192.
  secure = nonsensitive(length(var.data.private) > 0)
  type   = local.secure ? "SecureString" : "String"
  tier   = local.size > 4096 ? "Advanced" : "Standard"
}

# Records when the content last changed. A new content hash replaces it,
# and the replacement records the plan's time; ignore_changes keeps that
# time on every later plan, so an unchanged document plans no change.
resource "terraform_data" "updated_at" {
  count = var.updated_at == null ? 1 : 0

  triggers_replace = sha256(jsonencode(local.content))
  input            = formatdate("YYYY-MM-DD'T'hh:mm:ssZ", plantimestamp())

  lifecycle {
    ignore_changes = [input]
  }
}

resource "aws_ssm_parameter" "this" {
  name        = local.key
  description = substr("strata contract published by stack ${local.stack}", 0, 1024)
  type        = local.type
  tier        = local.tier
  key_id      = local.secure ? var.kms_key_id : null
  value       = local.json
  data_type   = "text"

  lifecycle {
    precondition {
      condition     = local.size <= 8192
      error_message = "put contract ${local.key} to ssm: contract too large for ssm: the document is ${local.size} bytes, over the 8192-byte limit of an SSM parameter (Advanced tier): publish fewer outputs, or keep contracts in S3 (the s3_json_store module; strata's init key contractStore: s3)."
    }
  }
}
