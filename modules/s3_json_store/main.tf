# The contract document, exactly as strata's stores write it:
# {"installed","version","stack","updatedAt","public","private"} in the
# object <path>/<name>.json (without the leading "/").
locals {
  parts      = compact([trim(var.path == "" ? "/configuration" : var.path, "/"), trim(var.name, "/")])
  key        = "/${join("/", local.parts)}"
  object_key = "${join("/", local.parts)}.json"
  stack      = coalesce(var.stack, trim(var.name, "/"))

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

resource "aws_s3_object" "this" {
  bucket                 = var.bucket
  key                    = local.object_key
  content                = sensitive(local.json)
  content_type           = "application/json"
  server_side_encryption = var.kms_key_id == null ? "AES256" : "aws:kms"
  kms_key_id             = var.kms_key_id
}
