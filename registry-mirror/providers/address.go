package providers

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// DefaultHostname is the registry host of a provider source address that
// names none, as in source = "strata-iac/strata".
const DefaultHostname = "registry.opentofu.org"

// Provider is a provider's source address: hostname/namespace/type.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

// String is the full source address, e.g.
// registry.opentofu.org/strata-iac/strata.
func (p Provider) String() string { return p.Hostname + "/" + p.Namespace + "/" + p.Type }

// ParseProvider parses a provider source address, "hostname/namespace/type"
// or "namespace/type" on [DefaultHostname], as tofu does. The parts are
// lower-cased, as tofu normalizes them.
func ParseProvider(s string) (Provider, error) {
	parts := strings.Split(s, "/")
	switch len(parts) {
	case 2:
		parts = append([]string{DefaultHostname}, parts...)
	case 3:
	default:
		return Provider{}, fmt.Errorf("parse provider %q: %w: want hostname/namespace/type or namespace/type", s, protocol.ErrInvalid)
	}
	p, err := newProvider(parts[0], parts[1], parts[2])
	if err != nil {
		return Provider{}, fmt.Errorf("parse provider %q: %w", s, err)
	}
	return p, nil
}

var (
	// hostnameRE is a DNS name, lower case, with an optional port.
	hostnameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$`)
	// partRE is a namespace or type: letters, digits and single dashes,
	// neither first nor last.
	partRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// platformRE is an os or an arch, e.g. linux or amd64.
	platformRE = regexp.MustCompile(`^[a-z0-9]+$`)
)

// newProvider lower-cases and checks the parts of a provider address.
func newProvider(hostname, namespace, typ string) (Provider, error) {
	p := Provider{
		Hostname:  strings.ToLower(hostname),
		Namespace: strings.ToLower(namespace),
		Type:      strings.ToLower(typ),
	}
	if len(p.Hostname) > 253 || !hostnameRE.MatchString(p.Hostname) {
		return Provider{}, fmt.Errorf("%w hostname %q", protocol.ErrInvalid, hostname)
	}
	if len(p.Namespace) > 64 || !partRE.MatchString(p.Namespace) {
		return Provider{}, fmt.Errorf("%w namespace %q: want letters, digits and single dashes", protocol.ErrInvalid, namespace)
	}
	if len(p.Type) > 64 || !partRE.MatchString(p.Type) {
		return Provider{}, fmt.Errorf("%w type %q: want letters, digits and single dashes", protocol.ErrInvalid, typ)
	}
	return p, nil
}

// Platform is the os_arch pair tofu names a package's target by, e.g.
// linux_amd64.
func Platform(os, arch string) string { return os + "_" + arch }

// checkPlatform checks an os and an arch.
func checkPlatform(os, arch string) error {
	if len(os) > 32 || !platformRE.MatchString(os) {
		return fmt.Errorf("%w os %q: want lower-case letters and digits, e.g. linux", protocol.ErrInvalid, os)
	}
	if len(arch) > 32 || !platformRE.MatchString(arch) {
		return fmt.Errorf("%w arch %q: want lower-case letters and digits, e.g. amd64", protocol.ErrInvalid, arch)
	}
	return nil
}

// ArchiveName is the file name of a provider package in the packed
// layout: terraform-provider-<type>_<version>_<os>_<arch>.zip.
func ArchiveName(typ, version, os, arch string) string {
	return "terraform-provider-" + typ + "_" + version + "_" + Platform(os, arch) + ".zip"
}

// archive is a parsed archive file name.
type archive struct {
	version, os, arch string
	// file is the archive's file, when it was listed.
	file storage.FileInfo
}

// ParseArchiveName parses the file name of one of typ's archives,
// terraform-provider-<type>_<version>_<os>_<arch>.zip; ok is false when
// name is not one, or is malformed.
func ParseArchiveName(typ, name string) (version, os, arch string, ok bool) {
	a, ok := parseArchiveName(typ, name)
	return a.version, a.os, a.arch, ok
}

// parseArchiveName parses the name of one of typ's archives; ok is false
// when name is not one, or is malformed.
func parseArchiveName(typ, name string) (archive, bool) {
	rest, ok := strings.CutPrefix(name, "terraform-provider-"+typ+"_")
	if !ok {
		return archive{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".zip")
	if !ok {
		return archive{}, false
	}
	parts := strings.Split(rest, "_")
	if len(parts) != 3 {
		return archive{}, false
	}
	a := archive{version: parts[0], os: parts[1], arch: parts[2]}
	if protocol.CheckVersion(a.version) != nil || checkPlatform(a.os, a.arch) != nil {
		return archive{}, false
	}
	return a, true
}
