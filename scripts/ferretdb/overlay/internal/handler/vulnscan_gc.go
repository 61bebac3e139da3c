// vulnscan: the garbage collector's pace for FerretDB's allocation pattern.
//
// This file is added to FerretDB v1.24.0's source by the vulnscan build (scripts/stack/ferretdb.ts);
// it is not part of upstream FerretDB. See docs/decisions.md, "Database".

package handler

import (
	"os"
	"runtime/debug"
)

// FerretDB decodes every document it reads into short-lived values, and its live heap is small
// (tens of MB), so with Go's default GOGC of 100 it collected garbage many times a second under
// load: a list page of twenty findings cost 31 ms of FerretDB CPU with GOGC=100 and 19 ms with 400.
// The heap may grow to about five times what is live; the soft memory limit makes the collector
// work harder again before the process passes 512 MiB. GOGC and GOMEMLIMIT in the environment
// still win.
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}

	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}
