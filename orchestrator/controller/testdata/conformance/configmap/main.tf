# Stands for the specs' module that writes a ConfigMap (kubernetes
# provider): one resource, its api_host an output.
resource "terraform_data" "example" {
  input = {
    api_host = "myhost:443"
    db_host  = "dbhost:5432"
  }
}

output "api_host" {
  value = terraform_data.example.output.api_host
}
