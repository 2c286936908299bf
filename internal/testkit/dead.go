package testkit

import (
	"net"
	"testing"
)

// DeadListener listens on 127.0.0.1, accepts every TCP connection and
// never answers on it: the peer that holds a client with no deadline for
// ever. It returns its "127.0.0.1:port"; the test's cleanup closes it.
func DeadListener(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	conns := make(chan net.Conn, 1024)
	go func() {
		defer close(conns)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}
