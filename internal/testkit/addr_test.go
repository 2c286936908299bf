package testkit

import (
	"net"
	"testing"
)

func TestFreeAddr(t *testing.T) {
	seen := map[string]bool{}
	for i := range 3 {
		addr := FreeAddr(t)
		host, _, err := net.SplitHostPort(addr)
		if err != nil || host != "127.0.0.1" {
			t.Fatalf("FreeAddr() #%d = %q (%v), want 127.0.0.1:port", i, addr, err)
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("FreeAddr() #%d = %q, listen: %v, want a free port", i, addr, err)
		}
		seen[addr] = true
		defer ln.Close() // keep it taken, so the next address differs
	}
	if len(seen) != 3 {
		t.Errorf("FreeAddr() three times while each was held = %v, want three addresses", seen)
	}
}
