# The spec's tf-data-archive: a plan that writes a file (the spec's
# archive_file zip; strata_file here, from strata's provider mirror), read
# again at apply with filemd5, and its MD5 as the output etag. The spec's
# ConfigMap is a terraform_data resource here.
terraform {
  required_providers {
    strata = {
      source = "strata-iac/strata"
    }
  }
}

variable "config_name" {
  type = string
}

data "strata_file" "bundle" {
  path    = "${path.module}/hello-world.zip"
  content = "console.log('Hello, World!');\n"
}

resource "terraform_data" "example" {
  input = {
    name     = var.config_name
    filename = data.strata_file.bundle.path
    file_md5 = filemd5(data.strata_file.bundle.path)
  }
}

output "etag" {
  value = terraform_data.example.output.file_md5
}
