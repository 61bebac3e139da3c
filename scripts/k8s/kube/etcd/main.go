// etcd's own entry point (the etcd module's main package only calls this), built from the
// go.etcd.io/etcd/server/v3 version k8s.io/kubernetes requires, so both binaries come from one
// module graph.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
