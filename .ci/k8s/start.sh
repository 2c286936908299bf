#!/bin/bash
# Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler, containerd and the kubelet
# (as root; all state under $STRATA_K8S_DIR), then waits for the node to be Ready and the default
# ServiceAccount to exist. Run setup.sh first. Images in $K/images/*.tar are imported into containerd.
set -euo pipefail
K="${STRATA_K8S_DIR:-$HOME/.cache/strata/k8s}"; B=$K/bin; P=$K/pki; L=$K/log; R=$K/run
mkdir -p $L $R $K/etcd-data $K/kubelet
t0=$(date +%s.%N)
bg() { local name=$1; shift; "$@" > $L/$name.log 2>&1 & echo $! > $R/$name.pid; }
waitfor() { local what=$1; shift; for i in $(seq 1 300); do if "$@" >/dev/null 2>&1; then echo "$what up after $(echo "$(date +%s.%N) - $t0" | bc)s"; return 0; fi; sleep 0.2; done; echo "$what FAILED"; exit 1; }
bg etcd etcd --name local --data-dir $K/etcd-data --listen-client-urls http://127.0.0.1:2379 \
  --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 \
  --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster local=http://127.0.0.1:2380 \
  --listen-metrics-urls http://127.0.0.1:2381
bg containerd containerd --config $K/containerd/config.toml
waitfor etcd curl -sf http://127.0.0.1:2379/health
bg kube-apiserver $B/kube-apiserver --etcd-servers=http://127.0.0.1:2379 \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port=6443 \
  --tls-cert-file=$P/apiserver.crt --tls-private-key-file=$P/apiserver.key --client-ca-file=$P/ca.crt \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file=$P/sa.pub --service-account-signing-key-file=$P/sa.key \
  --service-cluster-ip-range=10.0.0.0/24 --authorization-mode=Node,RBAC --allow-privileged=true \
  --kubelet-client-certificate=$P/apiserver-kubelet-client.crt --kubelet-client-key=$P/apiserver-kubelet-client.key \
  --enable-priority-and-fairness=false
waitfor kube-apiserver curl -sf --cacert $P/ca.crt --cert $P/admin.crt --key $P/admin.key https://127.0.0.1:6443/readyz
bg kube-controller-manager $B/kube-controller-manager --kubeconfig=$P/controller-manager.kubeconfig \
  --authentication-kubeconfig=$P/controller-manager.kubeconfig --authorization-kubeconfig=$P/controller-manager.kubeconfig \
  --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials=true \
  --service-account-private-key-file=$P/sa.key --root-ca-file=$P/ca.crt
bg kube-scheduler $B/kube-scheduler --kubeconfig=$P/scheduler.kubeconfig \
  --authentication-kubeconfig=$P/scheduler.kubeconfig --authorization-kubeconfig=$P/scheduler.kubeconfig \
  --bind-address=127.0.0.1 --leader-elect=false
waitfor containerd ctr -a $R/containerd.sock version
for i in $K/images/*.tar; do ctr -a $R/containerd.sock -n k8s.io images import "$i" >/dev/null; done
bg kubelet $B/kubelet --config=$K/kubelet/config.yaml --kubeconfig=$P/kubelet.kubeconfig \
  --root-dir=$K/kubelet/root --cert-dir=$K/kubelet/pki --v=1
waitfor kubelet curl -sf http://127.0.0.1:10248/healthz
# wait for the node to be Ready and the default ServiceAccount to exist
c() { curl -sf --cacert $P/ca.crt --cert $P/admin.crt --key $P/admin.key "$@"; }
nodeready() { c https://127.0.0.1:6443/api/v1/nodes | python3 -c 'import json,sys; sys.exit(0 if any(c["type"]=="Ready" and c["status"]=="True" for n in json.load(sys.stdin)["items"] for c in n["status"]["conditions"]) else 1)'; }
waitfor node-Ready nodeready
waitfor default-serviceaccount c https://127.0.0.1:6443/api/v1/namespaces/default/serviceaccounts/default
