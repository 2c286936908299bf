# Two resources, standing for the specs' two ConfigMaps, each with an
# output.
resource "terraform_data" "one" {
  input = "myhost:443"
}

resource "terraform_data" "two" {
  input = "myhost:443"
}

output "api_host_one" {
  value = terraform_data.one.output
}

output "api_host_two" {
  value = terraform_data.two.output
}
