resource "terraform_data" "queue" {
  input = "queue"
}
output "queue_id" { value = terraform_data.queue.id }
