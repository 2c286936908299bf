variable "path" {
  description = "Where contracts live, as strata's init key contractPrefix: every parameter under it, at any depth, is read. \"/\" reads every parameter; \"\" means the default."
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

variable "include_filter_regex" {
  description = "RE2 regular expression that a document's name (its key relative to path, without the leading \"/\": base, acme/api) must match whole, as if written ^(?:include_filter_regex)$. \"(base|foo|bar)\" keeps base, foo and bar but not database or foobar. \"\" or \".*\", the default, keeps every document."
  type        = string
  default     = ".*"
  nullable    = false

  validation {
    condition     = can(regexall(var.include_filter_regex, ""))
    error_message = "include_filter_regex must be a valid RE2 regular expression."
  }
}
