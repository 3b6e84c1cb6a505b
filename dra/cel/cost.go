package cel

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// runtimeCost charges the Kubernetes library functions at evaluation time
// as Kubernetes' CEL cost estimator does, so that the runtime cost limit
// trips on the same expressions. Functions it does not name cost what
// cel-go charges.
type runtimeCost struct{}

func ceilCost(f float64) *uint64 {
	c := uint64(math.Ceil(f))
	return &c
}

func fixedCost(c uint64) *uint64 { return &c }

// sizeOf is a value's size for costing: its Size if it has one, else 1.
func sizeOf(v ref.Val) uint64 {
	if s, ok := v.(traits.Sizer); ok {
		if n, ok := s.Size().(types.Int); ok {
			return uint64(n)
		}
	}
	return 1
}

// traversal is the cost of walking a value once.
func traversal(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(float64(len(string(x))) * common.StringTraversalCostFactor)
	case types.Bytes:
		return uint64(float64(len([]byte(x))) * common.StringTraversalCostFactor)
	case traits.Lister:
		var c uint64
		for it := x.Iterator(); it.HasNext() == types.True; {
			c += traversal(it.Next())
		}
		return c
	case traits.Mapper:
		var c uint64
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			c += traversal(k) + traversal(x.Get(k))
		}
		return c
	}
	return 1
}

// CallCost implements interpreter.ActualCostEstimator.
func (runtimeCost) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	const stf = common.StringTraversalCostFactor
	switch function {
	case "check":
		return fixedCost(350000)
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return fixedCost(1)
	case "fieldSelector", "labelSelector":
		if len(args) >= 2 {
			n := sizeOf(args[1])
			est := selectorCost(checker.SizeEstimate{Min: n, Max: n})
			return &est.Max
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		var c uint64
		if len(args) > 0 {
			c = traversal(args[0])
		}
		return &c
	case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(args[0])) * stf)
		}
	case "replace", "split":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(args[0])) * 2 * stf)
		}
	case "join":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(result)) * 2 * stf)
		}
	case "find", "findAll":
		if len(args) >= 2 {
			str := uint64(math.Ceil((1.0 + float64(sizeOf(args[0]))) * stf))
			re := uint64(math.Ceil(float64(sizeOf(args[1])) * common.RegexStringLengthCostFactor))
			c := str * re
			return &c
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(args[0])) * stf)
		}
	case "ip":
		if len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return fixedCost(1)
			}
			return ceilCost(float64(sizeOf(args[0])) * stf)
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(args[0])) * 2 * stf)
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return fixedCost(1)
	case "containsIP":
		if len(args) >= 2 {
			cs, os := sizeOf(args[0]), sizeOf(args[1])
			c := uint64(math.Ceil(float64(cs+cs) * stf))
			if overloadID == "cidr_contains_ip_string" {
				c += uint64(math.Ceil(float64(os) * stf))
			}
			return &c
		}
	case "containsCIDR":
		if len(args) >= 2 {
			cs, os := sizeOf(args[0]), sizeOf(args[1])
			c := uint64(math.Ceil(float64(cs+cs) * stf))
			c += uint64(math.Ceil(float64(cs)*stf)) + 1
			if overloadID == "cidr_contains_cidr_string" {
				c += uint64(math.Ceil(float64(os) * stf))
			}
			return &c
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return ceilCost(float64(sizeOf(args[0])) * stf)
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].Value().(Format); ok {
				str := uint64(math.Ceil((1.0 + float64(sizeOf(args[1]))) * stf))
				re := uint64(math.Ceil(float64(f.maxRegexSize) * common.RegexStringLengthCostFactor))
				c := str * re
				return &c
			}
		}
	case "format.named":
		return fixedCost(1)
	case "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch":
		return fixedCost(1)
	case "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return fixedCost(1)
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case Quantity, *Quantity, IP, *IP, CIDR, *CIDR, Format, *Format, URL, *URL, Semver, *Semver, authzVal:
				return fixedCost(1)
			}
		}
	}
	return nil
}

// selectorCost estimates parsing a label or field selector of the given
// length, as Kubernetes does.
func selectorCost(length checker.SizeEstimate) checker.CostEstimate {
	parse := length.MultiplyByCostFactor(common.StringTraversalCostFactor)
	reqs := length.MultiplyByCostFactor(0.5)
	reqCost := reqs.MultiplyByCostFactor(float64(common.ListCreateBaseCost + common.StructCreateBaseCost))
	base := checker.CostEstimate{Min: common.ListCreateBaseCost, Max: common.ListCreateBaseCost}
	return base.Add(parse).Add(reqCost)
}
