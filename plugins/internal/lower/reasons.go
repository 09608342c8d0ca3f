package lower

import "fmt"

// Names of msprobe's API lists that probe deliberately does not check get a
// one-line reason instead of a lowering: the SKIP message says why (random
// by nature, returns no tensor, no CPU kernel in PyTorch 1.13, needs a
// device, ...), never "not supported yet".

var reasons = map[Namespace]map[string]string{}

// cannot registers why the API entries ("Tensor.bernoulli_", ...) are not
// checked. The reason is a phrase without the API name and without a final
// full stop: "is random by nature". An entry with a lowering, or given two
// reasons, panics at start-up.
func cannot(reason string, entries ...string) {
	for _, e := range entries {
		ns, name := splitEntry(e)
		if reasons[ns] == nil {
			reasons[ns] = map[string]string{}
		}
		if _, dup := reasons[ns][name]; dup {
			panic("lower: two reasons for " + e)
		}
		reasons[ns][name] = reason
	}
}

// Reason returns why an API without a lowering is not checked, if probe
// knows: "Tensor.bernoulli_ is random by nature".
func Reason(ns Namespace, name string) (string, bool) {
	r, ok := reasons[ns][name]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s.%s %s", ns, name, r), true
}

// Reasons lists the API names of a namespace that have a reason, sorted.
func Reasons(ns Namespace) []string {
	return sortedKeys(reasons[ns])
}
