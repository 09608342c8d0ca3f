package plugin_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSDKImports keeps the SDK narrow: what a plugin author imports pulls
// in nothing of the host or the built-in plugins, and no third-party module
// beyond gRPC, protobuf, go-plugin and hclog (and golang.org/x/sys, which
// gRPC needs anyway and the shared-memory transport uses directly).
func TestSDKImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not in PATH")
	}
	// Every package the SDK depends on, with the third-party modules its
	// own code (the SDK and the module-internal packages it uses) imports
	// directly.
	out, err := exec.Command(goBin, "list", "-deps", "-f", `{{.ImportPath}}|{{if .Module}}{{.Module.Path}}{{end}}|{{join .Imports " "}}`, "github.com/probe-dev/probe/sdk/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/probe-dev/probe"
	allowed := []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin", "github.com/hashicorp/go-hclog",
		"golang.org/x/sys", "github.com/x448/float16"}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		pkg, mod, imports := parts[0], parts[1], strings.Fields(parts[2])
		for _, bad := range []string{self + "/host", self + "/plugins", "gonum.org/", "github.com/nlpodyssey/gopickle", "github.com/BurntSushi/toml"} {
			if strings.HasPrefix(pkg, bad) {
				t.Errorf("the SDK depends on %s", pkg)
			}
		}
		if mod != self {
			continue
		}
		for _, imp := range imports {
			if !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") || strings.HasPrefix(imp, self+"/") {
				continue // standard library or probe itself
			}
			ok := false
			for _, a := range allowed {
				ok = ok || imp == a || strings.HasPrefix(imp, a+"/")
			}
			if !ok {
				t.Errorf("%s imports %s, a module the SDK must not need", pkg, imp)
			}
		}
	}
}
