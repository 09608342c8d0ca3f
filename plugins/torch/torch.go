// Package torch holds probe's torch device plugin: a device plugin written
// in Python that runs every canonical op with the real PyTorch (and
// torch_npu on Ascend) on the device it is configured for. It is the one
// part of probe not written in Go, because it must drive a Python
// framework.
//
// The plugin's source is embedded here; the host writes it into a cache
// directory on first use (Materialize) and starts it with a Python
// interpreter as the built-in device "torch".
package torch

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Launcher is the plugin's entry script, relative to the source root.
const Launcher = "probe_device_torch.py"

//go:embed probe_device_torch.py probe_torch/*.py probe_torch/schema.json probe_torch/pb/probe/v1/*.py
var source embed.FS

// Source returns the plugin's files.
func Source() fs.FS { return source }

// Version identifies the embedded source: a digest of every file's name
// and contents.
func Version() string {
	h := sha256.New()
	for _, f := range files() {
		b, _ := source.ReadFile(f)
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func files() []string {
	var out []string
	_ = fs.WalkDir(source, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Materialize writes the plugin's source into cacheDir/torch-<Version>,
// unless a complete copy is already there, and returns the path of the
// launcher script. The copy is written to a temporary directory and renamed
// into place, so concurrent probes and interrupted writes never leave a
// partial tree behind.
func Materialize(cacheDir string) (string, error) {
	dir := filepath.Join(cacheDir, "torch-"+Version())
	launcher := filepath.Join(dir, Launcher)
	if _, err := os.Stat(launcher); err == nil {
		return launcher, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("torch plugin cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".torch-tmp-")
	if err != nil {
		return "", fmt.Errorf("torch plugin cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range files() {
		b, err := source.ReadFile(f)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(tmp, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", fmt.Errorf("torch plugin cache: %w", err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return "", fmt.Errorf("torch plugin cache: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another probe may have won the race; its copy is as good.
		if _, serr := os.Stat(launcher); serr == nil {
			return launcher, nil
		}
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("torch plugin cache: %s exists but holds no %s", dir, Launcher)
		}
		return "", fmt.Errorf("torch plugin cache: %w", err)
	}
	return launcher, nil
}
