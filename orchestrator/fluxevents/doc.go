// Package fluxevents posts a Terraform object's events to Flux's
// notification-controller, as Flux's controllers and the Tofu Controller
// do with --events-addr: each event as Flux's event API takes it
// (event.toolkit.fluxcd.io), so that a user's Alerts and Providers on
// Terraform objects go on working. The Kubernetes Events are written
// besides, by the caller.
package fluxevents
