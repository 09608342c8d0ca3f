package torch

import (
	"encoding/json"

	"github.com/probe-dev/probe/sdk/ops"
)

// The Python plugin binds requests against the canonical ops' schemas
// (defaults, arity, input kinds) as sdk/ops.Bind does. It reads them from
// probe_torch/schema.json, which SchemaJSON writes from sdk/ops;
// TestSchemaJSON keeps the checked-in copy current.

type jsonInput struct {
	Name           string `json:"name"`
	Optional       bool   `json:"optional,omitempty"`
	Variadic       bool   `json:"variadic,omitempty"`
	Differentiable bool   `json:"differentiable,omitempty"`
	ScalarOK       bool   `json:"scalar_ok,omitempty"`
}

type jsonAttr struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Default  any    `json:"default"`
	Required bool   `json:"required,omitempty"`
}

type jsonSchema struct {
	Name    string      `json:"name"`
	Inputs  []jsonInput `json:"inputs"`
	Attrs   []jsonAttr  `json:"attrs"`
	Outputs int         `json:"outputs"`
}

var attrKinds = map[ops.AttrKind]string{
	ops.AttrNone: "none", ops.AttrInt: "int", ops.AttrFloat: "float", ops.AttrBool: "bool",
	ops.AttrString: "string", ops.AttrInts: "ints", ops.AttrFloats: "floats",
}

func attrValue(a ops.Attr) any {
	switch a.Kind {
	case ops.AttrInt:
		return a.Int
	case ops.AttrFloat:
		return a.Float
	case ops.AttrBool:
		return a.Bool
	case ops.AttrString:
		return a.String
	case ops.AttrInts:
		if a.Ints == nil {
			return []int64{}
		}
		return a.Ints
	case ops.AttrFloats:
		if a.Floats == nil {
			return []float64{}
		}
		return a.Floats
	}
	return nil
}

// SchemaJSON returns every canonical op's schema as JSON, sorted by name.
func SchemaJSON() ([]byte, error) {
	var out []jsonSchema
	for _, name := range ops.Names() {
		s, _ := ops.Lookup(name)
		js := jsonSchema{Name: s.Name, Outputs: s.Outputs, Inputs: []jsonInput{}, Attrs: []jsonAttr{}}
		for _, in := range s.Inputs {
			js.Inputs = append(js.Inputs, jsonInput{in.Name, in.Optional, in.Variadic, in.Differentiable, in.ScalarOK})
		}
		for _, a := range s.Attrs {
			js.Attrs = append(js.Attrs, jsonAttr{Name: a.Name, Kind: attrKinds[a.Kind], Default: attrValue(a.Default), Required: a.Required})
		}
		out = append(out, js)
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
