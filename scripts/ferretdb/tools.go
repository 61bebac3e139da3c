//go:build tools

// Package tools pins FerretDB v1.24.0 (the last v1 release, SQLite backend) as a dependency of a
// module we control: installing it with `go install ...@v1.24.0` fails here because the module
// proxy refuses the version list, and the published module ships an empty version.txt.
package tools

import _ "github.com/FerretDB/FerretDB/cmd/ferretdb"
