package config

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// PluginArgs is what every plugin arguments type of this package
// implements (with pointer receivers): kube-scheduler's v1 defaulting and
// its validation, with root field paths.
type PluginArgs interface {
	// SetDefaults fills in the fields kube-scheduler's v1 defaulting
	// fills in.
	SetDefaults()
	// Validate returns kube-scheduler's validation errors (an ErrorList),
	// or nil.
	Validate() error
}

// wrongTypeReporter is implemented by the arguments types whose plugin
// words a wrong arguments type differently from "want args to be of
// type T, got U".
type wrongTypeReporter interface {
	wrongType(got any) error
}

// ArgsFrom converts a plugin factory's args to *T, defaulted and
// validated, for a plugin whose arguments type is T:
//
//   - nil (or a nil *T) means all defaults;
//   - a T or *T is copied (the caller's value is never modified);
//   - json.RawMessage, []byte (JSON or YAML) and map[string]any (as
//     sigs.k8s.io/yaml or encoding/json decode a document) are decoded
//     strictly into a T: unknown fields are a StrictDecodingError;
//   - anything else is an error naming its type, worded as the plugin's
//     factory upstream words it ("want args to be of type
//     NodeResourcesFitArgs, got int").
//
// A plugin factory calls it once:
//
//	a, err := config.ArgsFrom[config.NodeResourcesFitArgs](args)
func ArgsFrom[T any, PT interface {
	*T
	PluginArgs
	DeepCopy() *T
}](args any) (PT, error) {
	var a PT
	switch v := args.(type) {
	case nil:
		a = new(T)
	case PT:
		if v == nil {
			a = new(T)
		} else {
			a = v.DeepCopy()
		}
	case T:
		a = PT(&v).DeepCopy()
	case json.RawMessage:
		a = new(T)
		if err := decodeStrict(v, a); err != nil {
			return nil, err
		}
	case []byte:
		a = new(T)
		if err := decodeStrict(v, a); err != nil {
			return nil, err
		}
	case map[string]any:
		js, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		a = new(T)
		if err := decodeStrict(js, a); err != nil {
			return nil, err
		}
	default:
		if r, ok := any(PT(new(T))).(wrongTypeReporter); ok {
			return nil, r.wrongType(args)
		}
		return nil, fmt.Errorf("want args to be of type %s, got %T", reflect.TypeFor[T]().Name(), args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}

// wrongType words a wrong arguments type as upstream's NodeAffinity
// factory does.
func (*NodeAffinityArgs) wrongType(got any) error {
	return fmt.Errorf("args are not of type NodeAffinityArgs, got %T", got)
}
