#!/bin/bash
# Generates a CA, apiserver serving cert, SA key pair and client certs + kubeconfigs.
set -euo pipefail
D=${1:?usage: gen-certs.sh DIR}; NODE=${NODE:-$(hostname)}; mkdir -p $D; cd $D
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 365 -subj "/CN=k8s-ca" 2>/dev/null
cat > apiserver.ext <<X
basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local
X
openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver" 2>/dev/null
openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out apiserver.crt -days 365 -extfile apiserver.ext 2>/dev/null
openssl genrsa -out sa.key 2048 2>/dev/null; openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' > client.ext
client() { # name CN O
  local subj="/CN=$2"; [ -n "${3:-}" ] && subj="/O=$3/CN=$2"
  openssl req -newkey rsa:2048 -nodes -keyout $1.key -out $1.csr -subj "$subj" 2>/dev/null
  openssl x509 -req -in $1.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out $1.crt -days 365 -extfile client.ext 2>/dev/null
  cat > $1.kubeconfig <<K
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "https://127.0.0.1:6443", certificate-authority: "$D/ca.crt"}
users:
- name: $1
  user: {client-certificate: "$D/$1.crt", client-key: "$D/$1.key"}
contexts:
- name: local
  context: {cluster: local, user: $1}
current-context: local
K
}
client admin admin system:masters
client controller-manager system:kube-controller-manager
client scheduler system:kube-scheduler
client kubelet "system:node:$NODE" system:nodes
client apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
echo certs ok in $D
