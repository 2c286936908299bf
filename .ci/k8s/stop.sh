#!/bin/bash
# Stop everything started by start-cluster.sh (by PID only) and clean up mounts, netns, bridge, state.
K="${STRATA_K8S_DIR:-$HOME/.cache/strata/k8s}"; R=$K/run
stop() { local p; p=$(cat $R/$1.pid 2>/dev/null) || return 0; kill $p 2>/dev/null
  for i in $(seq 50); do kill -0 $p 2>/dev/null || return 0; sleep 0.2; done; kill -9 $p 2>/dev/null; }
for n in kubelet kube-scheduler kube-controller-manager kube-apiserver; do stop $n; done
# kill still-running pod containers/sandboxes through containerd, then any leftover shim of our socket
CTR="ctr -a $R/containerd.sock -n k8s.io"
if [ -S $R/containerd.sock ]; then
  for t in $($CTR tasks ls -q 2>/dev/null); do $CTR tasks kill -a -s SIGKILL $t 2>/dev/null; done; sleep 0.5
  for t in $($CTR tasks ls -q 2>/dev/null); do $CTR tasks delete -f $t >/dev/null 2>&1; done
fi
for p in $(pgrep -f "containerd-shim-runc-v2 .*-address $R/containerd.sock"); do kill -9 $p 2>/dev/null; done
for n in containerd etcd; do stop $n; done
for m in $(mount | awk '{print $3}' | grep -E "^$K/" | sort -r); do umount -l "$m" 2>/dev/null; done
for ns in /run/netns/cni-*; do [ -e "$ns" ] && { umount "$ns" 2>/dev/null; rm -f "$ns"; }; done
ip link del k8sbr0 2>/dev/null
[ "${1:-}" = "--wipe" ] && rm -rf $K/etcd-data $K/containerd/root $K/containerd/state $K/kubelet/root $K/kubelet/pki $K/kubelet/pod-logs $K/cni/ipam $K/log/*
true
