//go:build tools

// Pins kube-apiserver and etcd (the version Kubernetes itself requires) for scripts/k8s/tools.ts.
package tools

import (
	_ "go.etcd.io/etcd/server/v3/etcdmain"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
