package tensorload

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/fixtures"
)

func addSeeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
}

func fixtureDir() string {
	dir, _ := fixtures.Dir()
	return dir
}

// checkDecoded fails on a recovered panic and on inconsistent tensors.
func checkDecoded(t *testing.T, what string, err error, n int, dataLen, elem int) {
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s decoder panicked: %v", what, err)
		}
		return
	}
	if n*elem != dataLen {
		t.Fatalf("%s: %d elements of %d bytes but %d data bytes", what, n, elem, dataLen)
	}
}

// FuzzDecodeNPY: arbitrary bytes never panic the .npy reader and never make
// it allocate more than the input justifies.
func FuzzDecodeNPY(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "*.npy"), filepath.Join(fixtureDir(), "msprobe-unit-tests", "*.npy"))
	f.Add([]byte("\x93NUMPY\x03\x00\x10\x00\x00\x00{'shape': ()}   \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := DecodeNPY(data)
		if err == nil {
			checkDecoded(t, "npy", nil, tt.Len(), len(tt.Data), tt.DType.Size())
			if len(tt.Data) > len(data) {
				t.Fatalf("decoded %d bytes from a %d-byte file", len(tt.Data), len(data))
			}
			return
		}
		checkDecoded(t, "npy", err, 0, 0, 0)
	})
}

// FuzzDecodePT: arbitrary bytes never panic the .pt reader (zip, pickle,
// storages, strided views).
func FuzzDecodePT(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "*.pt"))
	// A couple of real msprobe files (float32 and int64 storages).
	addSeeds(f, filepath.Join(fixtureDir(), "msprobe-cpu-convnet", "dumps", "convnet_tensor", "step0", "rank", "dump_tensor_data", "Functional.nll_loss.0.forward.input.*.pt"))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := DecodePT(data)
		if err == nil {
			checkDecoded(t, "pt", nil, tt.Len(), len(tt.Data), tt.DType.Size())
			return
		}
		checkDecoded(t, "pt", err, 0, 0, 0)
	})
}

// FuzzPickleScan: the opcode scanner itself never panics.
func FuzzPickleScan(f *testing.F) {
	f.Add([]byte("\x80\x02K\x05."))
	f.Add([]byte("\x95\x08\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = scanPickle(data)
	})
}

// FuzzPTPickle fuzzes the pickle and storage of a .pt archive directly
// (FuzzDecodePT rarely gets past the zip checksums): the archive is
// rebuilt around the mutated data.pkl and storage 0, so the unpickler,
// the persistent loader and the strided gather see arbitrary input.
func FuzzPTPickle(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pt"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		var pkl, st []byte
		for _, zf := range zr.File {
			rc, err := zf.Open()
			if err != nil {
				continue
			}
			d, _ := io.ReadAll(rc)
			rc.Close()
			switch {
			case strings.HasSuffix(zf.Name, "/data.pkl"):
				pkl = d
			case strings.HasSuffix(zf.Name, "/data/0"):
				st = d
			}
		}
		f.Add(pkl, st)
	}
	f.Fuzz(func(t *testing.T, pkl, st []byte) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, r := range []struct {
			name string
			data []byte
		}{{"archive/data.pkl", pkl}, {"archive/data/0", st}, {"archive/version", []byte("3\n")}} {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: r.name, Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(r.data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		tt, err := DecodePT(buf.Bytes())
		if err == nil {
			checkDecoded(t, "pt", nil, tt.Len(), len(tt.Data), tt.DType.Size())
			return
		}
		checkDecoded(t, "pt", err, 0, 0, 0)
	})
}
