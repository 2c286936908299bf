output "queue_name" {
  description = "The name of the worker's job queue."
  value       = terraform_data.worker.output.queue
}

output "concurrency" {
  description = "How many jobs a worker runs at once."
  value       = terraform_data.worker.output.concurrency
}

output "cluster" {
  description = "The cluster the worker runs on."
  value       = terraform_data.worker.output.cluster
}
