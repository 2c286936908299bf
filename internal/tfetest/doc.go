// Package tfetest serves a fake of the HCP Terraform (Terraform
// Enterprise) API for tests: as much of it as tofu's cloud backend uses
// to keep a workspace's state when the workspace runs locally (service
// discovery, the organization's entitlements, workspaces, their lock,
// state versions and their outputs), over TLS on 127.0.0.1, with one
// bearer token. A module's `cloud {}` block names it by Host; tofu trusts
// it through SSL_CERT_FILE=CAFile.
package tfetest
