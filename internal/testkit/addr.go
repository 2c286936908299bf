package testkit

import (
	"net"
	"testing"
)

// FreeAddr returns an address on 127.0.0.1 ("127.0.0.1:port") whose port
// was free a moment ago, for a server that must be told its address
// before it starts. Another process may take the port in between: a test
// that starts a server on it retries or fails with the server's output.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
