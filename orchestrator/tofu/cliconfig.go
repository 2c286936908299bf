package tofu

import (
	"fmt"
	"strings"
)

// CLIConfig returns a tofu CLI configuration that keeps installed
// providers in the shared plugin cache pluginCacheDir, when it is not
// empty, and installs every provider from the network mirror at mirrorURL
// (https; a trailing slash is added when missing), when it is not empty.
// Give it to tofu with TF_CLI_CONFIG_FILE.
//
// tofu reads plugin_cache_dir with its environment variables expanded
// ($NAME, ${NAME}); there is no escape for "$", so the directory should
// not contain one.
//
// Once a provider is in the cache, an init whose working directory has a
// .terraform.lock.hcl entry for it links it from the cache and only asks
// the mirror for the provider's index.json; without a lock entry, tofu
// downloads the package again to check it.
func CLIConfig(mirrorURL, pluginCacheDir string) string {
	var b strings.Builder
	if pluginCacheDir != "" {
		fmt.Fprintf(&b, "plugin_cache_dir = %s\n", hclString(pluginCacheDir))
	}
	if mirrorURL == "" {
		return b.String()
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	if !strings.HasSuffix(mirrorURL, "/") {
		mirrorURL += "/"
	}
	fmt.Fprintf(&b, "provider_installation {\n  network_mirror {\n    url = %s\n  }\n}\n", hclString(mirrorURL))
	return b.String()
}

// hclString quotes s as a string of the tofu CLI configuration, whose
// syntax is HCL 1: with backslash escapes, and control characters as
// \u escapes.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
