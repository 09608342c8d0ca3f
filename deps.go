//go:build tools

package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/hashicorp/go-hclog"
	_ "github.com/hashicorp/go-plugin"
	_ "github.com/nlpodyssey/gopickle/pytorch"
	_ "gonum.org/v1/gonum/floats"
	_ "google.golang.org/grpc"
	_ "google.golang.org/protobuf/proto"
)
