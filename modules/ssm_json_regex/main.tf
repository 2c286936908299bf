# Every parameter under the path, decrypted.
data "aws_ssm_parameters_by_path" "this" {
  path            = local.path
  recursive       = true
  with_decryption = true
}

locals {
  parameter_names  = data.aws_ssm_parameters_by_path.this.names
  parameter_values = data.aws_ssm_parameters_by_path.this.values
}

# The selection, with the semantics of strata's contracts.Select: a
# document's name is its key relative to the path without the leading "/",
# and the regular expression must match the whole name.
locals {
  path    = "/${trim(var.path == "" ? "/configuration" : var.path, "/")}"
  base    = local.path == "/" ? "/" : "${local.path}/"
  pattern = var.include_filter_regex == "" ? ".*" : var.include_filter_regex
  selected = {
    for i, key in local.parameter_names : trimprefix(key, local.base) => i
    if startswith(key, local.base) && trimprefix(key, local.base) != "" && can(regex("^(?:${local.pattern})$", trimprefix(key, local.base)))
  }
  # Decoding is lenient as strata's is: a document without public or
  # private gets empty ones.
  values = {
    for name, i in local.selected : name => merge({ public = {}, private = {} }, jsondecode(local.parameter_values[i]))
  }
  public_values = {
    for name, doc in local.values : name => nonsensitive(doc.public)
  }
}
