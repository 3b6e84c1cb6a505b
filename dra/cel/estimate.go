package cel

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// Sizes of Kubernetes' format values, for estimates.
const (
	maxFormatSize          = 64
	maxNameFormatRegexSize = 128
)

// sizeNode is the declared size of one part of the device variable: the
// most elements (or characters) it can have, and its parts.
type sizeNode struct {
	max    uint64
	fields map[string]*sizeNode
	key    *sizeNode
	elem   *sizeNode
	attr   bool // the size of every attribute value
}

// deviceSizes is the size tree of the device variable as DRA declares it.
func deviceSizes() *sizeNode {
	domain := &sizeNode{max: maxDomainLength}
	id := &sizeNode{max: maxIDLength}
	attr := &sizeNode{max: max(maxAttributeValueLen, maxAttributeValues), attr: true}
	innerAttrs := &sizeNode{max: maxAttributesPerDevice, key: id, elem: attr}
	innerCaps := &sizeNode{max: maxAttributesPerDevice, key: id, elem: &sizeNode{}}
	return &sizeNode{fields: map[string]*sizeNode{
		"driver":                   {max: maxDriverLength},
		"allowMultipleAllocations": {max: 1},
		"attributes":               {max: maxAttributesPerDevice, key: domain, elem: innerAttrs},
		"capacity":                 {max: maxAttributesPerDevice, key: domain, elem: innerCaps},
	}}
}

// estimator estimates worst-case costs as the API server does for DRA:
// Kubernetes' library costs, and sizes from the device's declaration.
type estimator struct{ device *sizeNode }

// EstimateSize implements checker.CostEstimator.
func (e estimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	path := n.Path()
	if len(path) == 0 || path[0] != "device" {
		return nil
	}
	cur := e.device
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if cur.elem == nil {
				return nil
			}
			cur = cur.elem
		case "@keys":
			if cur.key == nil {
				return nil
			}
			cur = cur.key
		default:
			f, ok := cur.fields[name]
			if !ok {
				if cur.elem != nil && cur.elem.attr {
					cur = cur.elem
					continue
				}
				return nil
			}
			cur = f
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: cur.max}
}

func (e estimator) size(n checker.AstNode) checker.SizeEstimate {
	if sz := n.ComputedSize(); sz != nil {
		return *sz
	}
	if sz := e.EstimateSize(n); sz != nil {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

// itemsNode is a list's element, for estimating the list functions.
type itemsNode struct {
	path []string
	t    *types.Type
}

func (i *itemsNode) Path() []string                      { return i.path }
func (i *itemsNode) Type() *types.Type                   { return i.t }
func (i *itemsNode) Expr() ast.Expr                      { return nil }
func (i *itemsNode) ComputedSize() *checker.SizeEstimate { return nil }

func elementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	var path []string
	if p := list.Path(); p != nil {
		path = append(append(make([]string, 0, len(p)+1), p...), "@items")
	}
	return &itemsNode{path: path, t: params[0]}
}

func unitEstimate() *checker.CallEstimate {
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
}

// EstimateCallCost implements checker.CostEstimator with Kubernetes'
// estimates of its library functions.
func (e estimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	const stf = common.StringTraversalCostFactor
	switch function {
	case "check":
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 350000, Max: 350000}}
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return unitEstimate()
	case "fieldSelector", "labelSelector":
		if len(args) == 1 {
			return &checker.CallEstimate{CostEstimate: selectorCost(e.size(args[0]))}
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		if target != nil {
			el := checker.CostEstimate{Min: 1, Max: 1}
			if n := elementNode(*target); n != nil {
				k := n.Type().Kind()
				if k == types.StringKind || k == types.BytesKind {
					el = el.Add(e.size(n).MultiplyByCostFactor(stf))
				}
				return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCost(el)}
			} else if function == "includes" {
				return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCost(el)}
			}
			return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCostFactor(stf)}
		}
	case "url", "jsonpatch.escapeKey":
		if len(args) == 1 {
			sz := e.size(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := e.size(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return e.replaceEstimate(*target, args)
		}
	case "split":
		if target != nil {
			sz := e.size(*target)
			most := sz.Max
			if len(args) > 1 {
				if v := args[1].Expr().AsLiteral(); v != nil {
					if i, ok := v.Value().(int64); ok {
						most = uint64(i)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * stf), ResultSize: &checker.SizeEstimate{Min: 0, Max: most}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			listSize := e.size(*target)
			if n := elementNode(*target); n != nil {
				sz = listSize.Multiply(e.size(n))
			}
			if len(args) > 0 {
				sep := e.size(args[0])
				var lo, hi uint64
				if listSize.Min > 0 {
					lo = listSize.Min - 1
				}
				if listSize.Max > 0 {
					hi = listSize.Max - 1
				}
				sz = sz.Add(sep.Multiply(checker.SizeEstimate{Min: lo, Max: hi}))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := e.size(*target)
			str := sz.Add(checker.SizeEstimate{Min: 1, Max: 1}).MultiplyByCostFactor(stf)
			re := e.size(args[0]).MultiplyByCostFactor(common.RegexStringLengthCostFactor)
			return &checker.CallEstimate{CostEstimate: str.Multiply(re), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(stf)}
		}
	case "ip":
		if overloadID == "cidr_ip" {
			return unitEstimate()
		}
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(stf)}
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(2 * stf)}
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return unitEstimate()
	case "containsIP":
		if len(args) >= 1 {
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			c := sz.Add(sz).MultiplyByCostFactor(stf)
			if overloadID == "cidr_contains_ip_string" {
				c = c.Add(checker.CostEstimate(e.size(args[0])).MultiplyByCostFactor(stf))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "containsCIDR":
		if len(args) >= 1 {
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			c := sz.Add(sz).MultiplyByCostFactor(stf)
			c = c.Add(sz.MultiplyByCostFactor(stf))
			c = c.Add(checker.CostEstimate{Min: 1, Max: 1})
			if overloadID == "cidr_contains_cidr_string" {
				c = c.Add(checker.CostEstimate(e.size(args[0])).MultiplyByCostFactor(stf))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(stf)}
		}
	case "validate":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(stf).MultiplyByCostFactor(maxNameFormatRegexSize * common.RegexStringLengthCostFactor)}
		}
	case "format.named":
		return unitEstimate()
	case "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch":
		return unitEstimate()
	case "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return unitEstimate()
	case "_==_":
		if len(args) == 2 {
			return equalityEstimate(args[0], args[1])
		}
	}
	return nil
}

func (e estimator) replaceEstimate(target checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	sz := e.size(target)
	from := e.size(args[0])
	to := e.size(args[1])
	var count, kept checker.SizeEstimate
	switch {
	case from.Min == 0:
		count.Max = sz.Max
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		}
		kept.Max = sz.Max
	case to.Max <= from.Min:
		kept.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(from.Min)))
	}
	switch {
	case from.Max == 0:
		count.Min = sz.Min
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		}
		kept.Min = sz.Min
	case from.Max <= to.Min:
		kept.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(from.Max)))
	}
	size := count.Multiply(to).Add(kept)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor), ResultSize: &size}
}

// equalityEstimate is the cost of == on two values of one Kubernetes type.
func equalityEstimate(lhs, rhs checker.AstNode) *checker.CallEstimate {
	if lhs.Type().Equal(rhs.Type()) != types.True {
		return nil
	}
	t := lhs.Type()
	if t.Kind() == types.OpaqueKind {
		switch t.TypeName() {
		case ipType.TypeName(), cidrType.TypeName():
			return unitEstimate()
		}
	}
	if t.Kind() != types.StructKind {
		return nil
	}
	switch t.TypeName() {
	case quantityType.TypeName(), authorizerType.TypeName(), pathCheckType.TypeName(), groupCheckType.TypeName(),
		resourceCheckType.TypeName(), decisionType.TypeName(), semverType.TypeName():
		return unitEstimate()
	case formatType.TypeName():
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: maxFormatSize}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
	case urlType.TypeName():
		size := checker.SizeEstimate{Min: 1, Max: 1}
		// Kubernetes reads the right side's size twice here.
		r, l := rhs.ComputedSize(), rhs.ComputedSize()
		if r != nil && l != nil {
			size = r.Union(*l)
		}
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
	}
	return nil
}
