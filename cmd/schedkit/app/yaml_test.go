package app

import "sigs.k8s.io/yaml"

func yamlUnmarshal(b []byte, v any) error { return yaml.Unmarshal(b, v) }
