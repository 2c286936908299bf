variable "app_version" {
  type        = string
  description = "The version of this stack's code, as strata resolved it from _versions.yaml."
  default     = "0.0.0"
}

variable "client_id" {
  type        = string
  description = "The client the account belongs to (init clientId)."
}

variable "environment" {
  type        = string
  description = "The environment's name (init environment)."
}

variable "environment_class" {
  type        = string
  description = "prod or non-prod (init environmentClass)."
}

variable "region" {
  type        = string
  description = "The region the environment runs in (init region)."
}

variable "domain" {
  type        = string
  description = "The environment's DNS domain (init domain)."
}
