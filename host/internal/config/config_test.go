package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Run.Framework != "pytorch" || c.Run.Device != "cpu-emulated" || c.Run.Bench != "cpu" || c.Run.Workers != 1 {
		t.Errorf("unexpected defaults: %+v", c.Run)
	}
	if c.Run.APITimeout.Duration != 120*time.Second {
		t.Errorf("api_timeout = %v", c.Run.APITimeout)
	}
}

func TestRepoProbeTomlIsDefault(t *testing.T) {
	data, err := os.ReadFile("../../../probe.toml")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(Default) {
		t.Error("probe.toml at the repository root differs from host/internal/config/default.toml; keep them identical")
	}
}

func TestOverrideAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, "probe.toml")
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := Load(write("version = 1\n[run]\nworkers = 3\ndevice = \"mine\"\n[plugins.device.mine]\ncommand = \"/bin/x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Run.Workers != 3 || c.Plugins.Device["mine"].Command != "/bin/x" || c.Run.Bench != "cpu" {
		t.Errorf("override not applied: %+v", c.Run)
	}
	for _, bad := range []struct{ toml, want string }{
		{"version = 1\n[run]\nwokers = 2\n", "unknown key(s): run.wokers"},
		{"version = 2\n", "only version 1"},
		{"version = 1\n[run]\ndevice = \"nope\"\n", `no device plugin "nope"`},
		{"version = 1\n[run]\nworkers = 0\n", "run.workers"},
		{"version = 1\n[run]\napi_timeout = \"soon\"\n", "api_timeout"},
	} {
		_, err := Load(write(bad.toml))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Load(%q) error = %v, want it to mention %q", bad.toml, err, bad.want)
		}
	}
}

func TestLists(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Run.WhiteList) != 0 || len(c.Run.BlackList) != 0 {
		t.Errorf("default lists: %v %v", c.Run.WhiteList, c.Run.BlackList)
	}
	p := filepath.Join(t.TempDir(), "probe.toml")
	if err := os.WriteFile(p, []byte("version = 1\n[run]\nwhite_list = [\"conv2d\", \"gelu\"]\nblack_list = [\"gelu\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(p); err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Run.WhiteList, ",") != "conv2d,gelu" || strings.Join(c.Run.BlackList, ",") != "gelu" {
		t.Errorf("lists: %v %v", c.Run.WhiteList, c.Run.BlackList)
	}
}
