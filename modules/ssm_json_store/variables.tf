variable "path" {
  description = "Where contracts live, as strata's init key contractPrefix: the parameter is <path>/<name>. \"/\" puts it at the root; \"\" means the default."
  type        = string
  default     = "/configuration"
  nullable    = false

  validation {
    condition = trim(var.path, "/") == "" || alltrue([
      for s in split("/", trim(var.path, "/")) : can(regex("^[a-zA-Z0-9_.-]+$", s)) && s != "." && s != ".."
    ])
    error_message = "The path must be segments of a-z, A-Z, 0-9, \"_\", \".\" and \"-\" separated by \"/\", none empty, \".\" or \"..\", as SSM parameter names allow."
  }
}

variable "name" {
  description = "The contract's name: the parameter is <path>/<name>, and External Secrets reads it as remoteRef.key. It may hold \"/\" (acme/api)."
  type        = string
  nullable    = false

  validation {
    condition = trim(var.name, "/") != "" && alltrue([
      for s in split("/", trim(var.name, "/")) : can(regex("^[a-zA-Z0-9_.-]+$", s)) && s != "." && s != ".."
    ])
    error_message = "The name must be one or more segments of a-z, A-Z, 0-9, \"_\", \".\" and \"-\" separated by \"/\", none empty, \".\" or \"..\", as SSM parameter names allow."
  }
}

variable "data" {
  description = "The document's data: installed (default true), public (values anyone may read) and private (sensitive values; any makes the parameter a SecureString). public and private must be objects."
  type = object({
    installed = optional(bool, true)
    public    = optional(any, {})
    private   = optional(any, {})
  })
  nullable = false

  validation {
    condition     = can(keys(var.data.public)) && can(keys(var.data.private))
    error_message = "data.public and data.private must be objects (maps), as the document's public and private are."
  }
}

variable "stack_version" {
  description = "The producer's version, the document's version; \"\" when it has none. (A module input may not be called version.)"
  type        = string
  default     = ""
  nullable    = false
}

variable "stack" {
  description = "The producer stack's name, the document's stack. Default: name."
  type        = string
  default     = null
}

variable "kms_key_id" {
  description = "KMS key that encrypts the SecureString; null means the account's default key for SSM (alias/aws/ssm). Unused for a String."
  type        = string
  default     = null
}

variable "updated_at" {
  description = "The document's updatedAt (RFC 3339, UTC, to the second: 2025-01-02T03:04:05Z). null, the default, records the time of the first apply that wrote the current content, and keeps it while the content is unchanged."
  type        = string
  default     = null

  validation {
    condition     = var.updated_at == null ? true : can(regex("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", var.updated_at))
    error_message = "updated_at must be an RFC 3339 time in UTC to the second, such as 2025-01-02T03:04:05Z."
  }
}
