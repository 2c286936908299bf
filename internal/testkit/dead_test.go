package testkit

import (
	"net"
	"testing"
	"time"
)

func TestDeadListener(t *testing.T) {
	addr := DeadListener(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("Dial(%q) = %v, want a connection", addr, err)
	}
	defer c.Close()
	if err := c.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Errorf("Read from DeadListener(%q) = %d bytes, want no answer", addr, n)
	}
}
