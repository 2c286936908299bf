# The spec's terraform-envvar-variable-output and terraform-envvar-provider-vars:
# what the runner's environment gives a provider's process (the spec's
# external data source and vault provider; strata_env, from strata's
# provider mirror, here), as outputs.
terraform {
  required_providers {
    strata = {
      source = "strata-iac/strata"
    }
  }
}

data "strata_env" "runner" {
  names = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "VAULT_TOKEN"]
}

output "http_proxy" {
  value = data.strata_env.runner.values["HTTP_PROXY"]
}

output "https_proxy" {
  value = data.strata_env.runner.values["HTTPS_PROXY"]
}

output "no_proxy" {
  value = data.strata_env.runner.values["NO_PROXY"]
}

output "vault_token" {
  value = data.strata_env.runner.values["VAULT_TOKEN"]
}
