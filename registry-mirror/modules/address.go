package modules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// Module is a module's address in a registry, without the host:
// namespace/name/system, as in source = "mirror.internal:8443/acme/network/aws".
type Module struct {
	Namespace string
	Name      string
	// System is the remote system the module is for, such as aws; tofu
	// calls it the module's target system or provider.
	System string
}

// String is the address, e.g. acme/network/aws.
func (m Module) String() string { return m.Namespace + "/" + m.Name + "/" + m.System }

var (
	// moduleNameRE is a module namespace or name, lower case: letters,
	// digits, dashes and underscores, neither first nor last; tofu's
	// registry addresses allow at most 64 characters.
	moduleNameRE = regexp.MustCompile(`^[0-9a-z]([0-9a-z_-]{0,62}[0-9a-z])?$`)
	// moduleSystemRE is a module's target system: lower-case letters and
	// digits.
	moduleSystemRE = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
)

// ParseModule parses a module address, "namespace/name/system". The parts
// are lower-cased: registry addresses do not depend on case.
func ParseModule(s string) (Module, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return Module{}, fmt.Errorf("parse module %q: %w: want namespace/name/system", s, protocol.ErrInvalid)
	}
	m, err := newModule(parts[0], parts[1], parts[2])
	if err != nil {
		return Module{}, fmt.Errorf("parse module %q: %w", s, err)
	}
	return m, nil
}

// newModule lower-cases and checks the parts of a module address.
func newModule(namespace, name, system string) (Module, error) {
	m := Module{
		Namespace: strings.ToLower(namespace),
		Name:      strings.ToLower(name),
		System:    strings.ToLower(system),
	}
	if !moduleNameRE.MatchString(m.Namespace) {
		return Module{}, fmt.Errorf("%w module namespace %q: want letters, digits, dashes and underscores, at most 64", protocol.ErrInvalid, namespace)
	}
	if !moduleNameRE.MatchString(m.Name) {
		return Module{}, fmt.Errorf("%w module name %q: want letters, digits, dashes and underscores, at most 64", protocol.ErrInvalid, name)
	}
	if !moduleSystemRE.MatchString(m.System) {
		return Module{}, fmt.Errorf("%w module system %q: want lower-case letters and digits, e.g. aws", protocol.ErrInvalid, system)
	}
	return m, nil
}

// archiveExt ends the name of a module archive: <version>.tar.gz.
const archiveExt = ".tar.gz"

// dirKey is the key of the directory of a checked module's archives.
func dirKey(m Module) string {
	return "modules/" + m.Namespace + "/" + m.Name + "/" + m.System
}

// archiveKey is the key of a module version's archive.
func archiveKey(m Module, version string) string {
	return dirKey(m) + "/" + version + archiveExt
}

// parseArchiveName parses the file name of a module archive,
// <version>.tar.gz; ok is false when name is not one, or is malformed.
func parseArchiveName(name string) (version string, ok bool) {
	version, ok = strings.CutSuffix(name, archiveExt)
	if !ok || checkVersion(version) != nil {
		return "", false
	}
	return version, true
}

// checkVersion checks a module version: a semantic version as
// [checkVersion] takes it, which Masterminds/semver parses strictly.
func checkVersion(v string) error {
	if err := protocol.CheckVersion(v); err != nil {
		return err
	}
	if _, err := semver.StrictNewVersion(v); err != nil {
		return fmt.Errorf("%w version %q: %w", protocol.ErrInvalid, v, err)
	}
	return nil
}
