# The worker service's infrastructure: its job queue on the cluster.
resource "terraform_data" "worker" {
  input = {
    app_version = var.app_version
    cluster     = var.cluster.public.name
    queue       = var.queue
    concurrency = var.concurrency
  }
}
