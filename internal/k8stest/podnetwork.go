package k8stest

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIServerName is the name pods give the API server through
// PodAPIServer: one of the names in its serving certificate.
const APIServerName = "kubernetes.default.svc"

// NodeAddress is the node's InternalIP: an address of this machine that
// pods on the cluster's pod network reach, unlike its loopback.
func (c *Cluster) NodeAddress(t testing.TB) string {
	t.Helper()
	nodes, err := c.Client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list nodes: %v", err)
	}
	for _, n := range nodes.Items {
		for _, a := range n.Status.Addresses {
			if a.Type == corev1.NodeInternalIP {
				return a.Address
			}
		}
	}
	t.Fatalf("no node of the cluster has an InternalIP: %d nodes", len(nodes.Items))
	return ""
}

// PodAPIServer makes the API server reachable from pods that are not on
// the node's network. The test cluster runs no Service proxy and its API
// server listens on the node's loopback only, so the kubernetes Service
// leads nowhere: PodAPIServer forwards TCP from a free port of the node's
// address to the API server (TLS passes through untouched) until the test
// ends. It returns that address and port; a pod reaches it as
// APIServerName (which the API server's certificate names) with a
// hostAliases entry for the address, and
// KUBERNETES_SERVICE_HOST=APIServerName, KUBERNETES_SERVICE_PORT=port.
func (c *Cluster) PodAPIServer(t testing.TB) (addr, port string) {
	t.Helper()
	u, err := url.Parse(c.Config.Host)
	if err != nil {
		t.Fatalf("API server %q: %v", c.Config.Host, err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(c.NodeAddress(t), "0"))
	if err != nil {
		t.Fatalf("listen for the API server's forwarder: %v", err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	track := func(conn net.Conn, add bool) {
		mu.Lock()
		defer mu.Unlock()
		if add {
			open[conn] = true
		} else {
			delete(open, conn)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", u.Host)
			if err != nil {
				in.Close()
				continue
			}
			track(in, true)
			track(out, true)
			wg.Add(1)
			go func() {
				defer wg.Done()
				pipe(in, out)
				track(in, false)
				track(out, false)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for conn := range open {
			conn.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	return host, port
}

// pipe copies both ways until either side ends, then closes both.
func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	a.Close()
	b.Close()
	<-done
}

// FreeNodeAddr is host:port of a port free on the node's address: a
// server of the test listening there is reached both from this machine and
// from pods on the pod network.
func (c *Cluster) FreeNodeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(c.NodeAddress(t), "0"))
	if err != nil {
		t.Fatalf("free port on the node's address: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
