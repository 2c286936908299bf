package providers

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// SHA256SumsName is the name of the file that lists the SHA-256 of each
// archive of a provider version, terraform-provider-<type>_<version>_SHA256SUMS,
// as providers are published; its detached signature is the same name
// with .sig.
func SHA256SumsName(typ, version string) string {
	return "terraform-provider-" + typ + "_" + version + "_SHA256SUMS"
}

// formatSHA256Sums writes a SHA256SUMS file: a line "<hex>  <file name>"
// per archive, sorted by name, as sha256sum writes it. sums maps file
// names to hex SHA-256 sums.
func formatSHA256Sums(sums map[string]string) []byte {
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, name := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return b.Bytes()
}

// parseSHA256Sums reads a SHA256SUMS file into a map of file names to
// lower-case hex SHA-256 sums. Blank lines are skipped; a line that is not
// "<64 hex digits> <name>" (with one or two spaces, or " *" for binary
// mode) wraps [protocol.ErrInvalid].
func parseSHA256Sums(doc []byte) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		sum, name, ok := strings.Cut(line, " ")
		name = strings.TrimPrefix(strings.TrimPrefix(name, " "), "*")
		if !ok || !isSHA256Hex(sum) || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("%w SHA256SUMS line %d: %q, want \"<sha256>  <file name>\"", protocol.ErrInvalid, n, line)
		}
		sums[name] = strings.ToLower(sum)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w SHA256SUMS: %w", protocol.ErrInvalid, err)
	}
	return sums, nil
}

// isSHA256Hex reports whether s is a SHA-256 sum in hex.
func isSHA256Hex(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}
