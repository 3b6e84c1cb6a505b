package config

import "fmt"

// NodeResourcesFitArgsFrom converts a plugin factory's args to
// NodeResourcesFitArgs: nil means all defaults, and a
// NodeResourcesFitArgs value or pointer is copied and defaulted. The
// result is validated. Any other type is an error naming it.
func NodeResourcesFitArgsFrom(args any) (*NodeResourcesFitArgs, error) {
	var a *NodeResourcesFitArgs
	switch v := args.(type) {
	case nil:
		a = &NodeResourcesFitArgs{}
	case *NodeResourcesFitArgs:
		if v == nil {
			a = &NodeResourcesFitArgs{}
		} else {
			a = v.DeepCopy()
		}
	case NodeResourcesFitArgs:
		a = v.DeepCopy()
	default:
		return nil, fmt.Errorf("want args to be of type NodeResourcesFitArgs, got %T", args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}

// NodeResourcesBalancedAllocationArgsFrom converts a plugin factory's args
// to NodeResourcesBalancedAllocationArgs, as NodeResourcesFitArgsFrom does.
func NodeResourcesBalancedAllocationArgsFrom(args any) (*NodeResourcesBalancedAllocationArgs, error) {
	var a *NodeResourcesBalancedAllocationArgs
	switch v := args.(type) {
	case nil:
		a = &NodeResourcesBalancedAllocationArgs{}
	case *NodeResourcesBalancedAllocationArgs:
		if v == nil {
			a = &NodeResourcesBalancedAllocationArgs{}
		} else {
			a = v.DeepCopy()
		}
	case NodeResourcesBalancedAllocationArgs:
		a = v.DeepCopy()
	default:
		return nil, fmt.Errorf("want args to be of type NodeResourcesBalancedAllocationArgs, got %T", args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}

// NodeAffinityArgsFrom converts a plugin factory's args to
// NodeAffinityArgs, as NodeResourcesFitArgsFrom does; any other type is an
// error worded as upstream's ("args are not of type NodeAffinityArgs,
// got T").
func NodeAffinityArgsFrom(args any) (*NodeAffinityArgs, error) {
	var a *NodeAffinityArgs
	switch v := args.(type) {
	case nil:
		a = &NodeAffinityArgs{}
	case *NodeAffinityArgs:
		if v == nil {
			a = &NodeAffinityArgs{}
		} else {
			a = v.DeepCopy()
		}
	case NodeAffinityArgs:
		a = v.DeepCopy()
	default:
		return nil, fmt.Errorf("args are not of type NodeAffinityArgs, got %T", args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}
