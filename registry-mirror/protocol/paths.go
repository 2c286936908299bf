package protocol

// DiscoveryPath is where a registry host's service discovery document is:
// the paths of the protocols it serves, such as
// {"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}.
const DiscoveryPath = "/.well-known/terraform.json"
