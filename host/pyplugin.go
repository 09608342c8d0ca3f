package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/probe-dev/probe/host/internal/config"
	"github.com/probe-dev/probe/plugins/torch"
)

// pythonBuiltin is a built-in plugin written in Python: its source is
// embedded in probe and written into probe's cache on first use.
type pythonBuiltin struct {
	// materialize writes the source into a cache directory and returns
	// the entry script.
	materialize func(cacheDir string) (string, error)
	// modules must be importable by the interpreter, with what to install
	// for each.
	modules []pythonModule
}

type pythonModule struct{ name, debian, pip string }

var pythonBuiltins = map[string]pythonBuiltin{
	"torch": {
		materialize: torch.Materialize,
		modules: []pythonModule{
			{"torch", "python3-torch", "torch"},
			{"grpc", "python3-grpcio", "grpcio"},
			{"google.protobuf", "python3-protobuf", "protobuf"},
		},
	},
}

// defaultPythons are tried in order when probe.toml names no interpreter:
// the first with every module wins. /usr/bin/python3 comes second so that
// Debian's packages are found behind a pyenv or venv python3 without them.
var defaultPythons = []string{"python3", "/usr/bin/python3"}

// cacheDir is where built-in Python plugins are materialised:
// $PROBE_CACHE_DIR, else the user's cache directory + "/probe".
func cacheDir() (string, error) {
	if d := os.Getenv("PROBE_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for probe's Python plugins (set PROBE_CACHE_DIR): %w", err)
	}
	return filepath.Join(d, "probe"), nil
}

// pythonChecks caches, per interpreter path and module list, what the
// interpreter lacks, so that workers starting the same plugin check once.
var pythonChecks sync.Map // key string -> *pythonCheck

type pythonCheck struct {
	once    sync.Once
	missing []pythonModule
	err     error
}

// missingModules reports which modules python cannot find (without
// importing them: importlib.util.find_spec is fast).
func missingModules(ctx context.Context, python string, mods []pythonModule) ([]pythonModule, error) {
	names := make([]string, len(mods))
	for i, m := range mods {
		names[i] = m.name
	}
	key := python + "\x00" + strings.Join(names, ",")
	v, _ := pythonChecks.LoadOrStore(key, &pythonCheck{})
	c := v.(*pythonCheck)
	c.once.Do(func() {
		script := "import importlib.util, sys\n" +
			"for m in sys.argv[1:]:\n" +
			"    try:\n" +
			"        ok = importlib.util.find_spec(m) is not None\n" +
			"    except Exception:\n" +
			"        ok = False\n" +
			"    if not ok:\n" +
			"        print(m)\n"
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(cctx, python, append([]string{"-c", script}, names...)...).Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && len(ee.Stderr) > 0 {
				err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
			}
			c.err = err
			return
		}
		lacks := map[string]bool{}
		for _, l := range strings.Fields(string(out)) {
			lacks[l] = true
		}
		for _, m := range mods {
			if lacks[m.name] {
				c.missing = append(c.missing, m)
			}
		}
	})
	return c.missing, c.err
}

// choosePython returns the interpreter for a built-in Python plugin: the
// configured one, or the first default with every module. Its error is one
// line naming the interpreter(s) tried and what to install.
func choosePython(ctx context.Context, name string, configured string, b pythonBuiltin) (string, error) {
	candidates := defaultPythons
	if configured != "" {
		candidates = []string{configured}
	}
	var tried []string
	var firstMissing []pythonModule
	firstPath := ""
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			tried = append(tried, c+" (not found)")
			continue
		}
		missing, err := missingModules(ctx, path, b.modules)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s (does not run: %v)", path, err))
			continue
		}
		if len(missing) == 0 {
			return path, nil
		}
		var names []string
		for _, m := range missing {
			names = append(names, m.name)
		}
		tried = append(tried, fmt.Sprintf("%s (lacks %s)", path, strings.Join(names, ", ")))
		if firstPath == "" {
			firstPath, firstMissing = path, missing
		}
	}
	hint := "install Python 3 or set python = \"/path/to/python\" in [plugins.device." + name + "]"
	if firstPath != "" {
		var deb, pip []string
		for _, m := range firstMissing {
			deb = append(deb, m.debian)
			pip = append(pip, m.pip)
		}
		hint = fmt.Sprintf("install them: apt-get install %s, or %s -m pip install %s; or set python = \"/path/to/python\" in [plugins.device.%s]",
			strings.Join(deb, " "), firstPath, strings.Join(pip, " "), name)
	}
	return "", fmt.Errorf("device plugin %s needs a Python with %s: tried %s; %s",
		name, moduleNames(b.modules), strings.Join(tried, ", "), hint)
}

func moduleNames(mods []pythonModule) string {
	var names []string
	for _, m := range mods {
		names = append(names, m.name)
	}
	return strings.Join(names, ", ")
}

// pythonSpec fills the launch command of a built-in Python plugin.
func pythonSpec(ctx context.Context, name string, p config.Plugin, b pythonBuiltin) (path string, args []string, err error) {
	python, err := choosePython(ctx, name, p.Python, b)
	if err != nil {
		return "", nil, err
	}
	dir, err := cacheDir()
	if err != nil {
		return "", nil, err
	}
	script, err := b.materialize(dir)
	if err != nil {
		return "", nil, err
	}
	// -u: unbuffered, so that the plugin's stderr lines reach probe's log
	// (and crash reports) at once.
	return python, []string{"-u", script}, nil
}
