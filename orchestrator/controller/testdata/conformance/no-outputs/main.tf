# Stands for the specs' module that writes a ConfigMap and has no output.
resource "terraform_data" "example" {
  input = {
    api_host = "myhost:443"
    db_host  = "dbhost:5432"
  }
}
