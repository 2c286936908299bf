package contracts

import "strings"

// DefaultPrefix is where contracts live when no prefix is configured.
const DefaultPrefix = "/configuration"

// Key returns the key of a contract under prefix: Key("/configuration",
// "network") is "/configuration/network". An empty prefix means
// DefaultPrefix; leading and trailing slashes on either part are
// tolerated.
func Key(prefix, contract string) string {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	p := strings.Trim(prefix, "/")
	c := strings.Trim(contract, "/")
	if p == "" {
		return "/" + c
	}
	return "/" + p + "/" + c
}
