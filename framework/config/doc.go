// Package config holds the arguments of schedkit's scheduler plugins, with
// the field names, JSON names, defaults and validation of kube-scheduler's
// own plugin arguments (k8s.io/kube-scheduler/config/v1 and
// pkg/scheduler/apis/config at Kubernetes v1.37.2), and the names of the
// plugins themselves.
//
// The argument types decode from the "args" of a KubeSchedulerConfiguration
// plugin config entry. SetDefaults fills in what kube-scheduler's v1
// defaulting fills in; Validate returns the errors kube-scheduler's
// validation returns, with the same field paths and messages (an
// ErrorList, printed like Kubernetes' aggregate error).
//
// The plugin factories in packages predicates and priorities accept nil
// (all defaults), a value or a pointer of the plugin's argument type, or
// the args as a document decodes them (json.RawMessage, YAML or JSON
// bytes, map[string]any); ArgsFrom does that conversion for them: it
// decodes strictly or copies, defaults and validates.
package config
