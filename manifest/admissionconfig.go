package manifest

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/admission"
)

// AdmissionConfig is what schedkit takes from the API server's admission
// configuration (--admission-control-config-file): the ResourceQuota
// plugin's limitedResources. Other plugins' configurations are read and
// not used.
type AdmissionConfig struct {
	// LimitedResources is the ResourceQuota plugin's
	// ResourceQuotaConfiguration limitedResources.
	LimitedResources []admission.LimitedResource
}

type admissionConfiguration struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Plugins    []struct {
		Name          string         `json:"name"`
		Path          string         `json:"path,omitempty"`
		Configuration map[string]any `json:"configuration,omitempty"`
	} `json:"plugins"`
}

type resourceQuotaConfiguration struct {
	APIVersion       string                      `json:"apiVersion"`
	Kind             string                      `json:"kind"`
	LimitedResources []admission.LimitedResource `json:"limitedResources"`
}

// ReadAdmissionConfig reads an AdmissionConfiguration
// (apiserver.config.k8s.io/v1 or v1alpha1) from the file path, strictly
// (an unknown field is an error): for the ResourceQuota plugin, its
// configuration inline or in the file its path names (relative to the
// configuration's folder), a ResourceQuotaConfiguration
// (apiserver.config.k8s.io/v1, or the older Configuration of
// resourcequota.admission.k8s.io/v1beta1 and v1alpha1).
func ReadAdmissionConfig(path string) (*AdmissionConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ac admissionConfiguration
	if err := yaml.UnmarshalStrict(b, &ac); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case ac.Kind != "AdmissionConfiguration":
		return nil, fmt.Errorf("%s: kind %q: want AdmissionConfiguration", path, ac.Kind)
	case ac.APIVersion != "apiserver.config.k8s.io/v1" && ac.APIVersion != "apiserver.config.k8s.io/v1alpha1":
		return nil, fmt.Errorf("%s: apiVersion %q: want apiserver.config.k8s.io/v1", path, ac.APIVersion)
	}
	out := &AdmissionConfig{}
	for i, p := range ac.Plugins {
		if p.Name != "ResourceQuota" {
			continue
		}
		where := fmt.Sprintf("%s: plugins[%d] (ResourceQuota)", path, i)
		raw := []byte(nil)
		switch {
		case p.Configuration != nil:
			if raw, err = yaml.Marshal(p.Configuration); err != nil {
				return nil, fmt.Errorf("%s: configuration: %w", where, err)
			}
		case p.Path != "":
			file := p.Path
			if !filepath.IsAbs(file) {
				file = filepath.Join(filepath.Dir(path), file)
			}
			if raw, err = os.ReadFile(file); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			where = file
		default:
			continue
		}
		var rq resourceQuotaConfiguration
		if err := yaml.UnmarshalStrict(raw, &rq); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		switch {
		case rq.APIVersion == "apiserver.config.k8s.io/v1" && rq.Kind == "ResourceQuotaConfiguration":
		case (rq.APIVersion == "resourcequota.admission.k8s.io/v1beta1" || rq.APIVersion == "resourcequota.admission.k8s.io/v1alpha1") && rq.Kind == "Configuration":
		default:
			return nil, fmt.Errorf("%s: %s %s: want apiserver.config.k8s.io/v1 ResourceQuotaConfiguration", where, rq.APIVersion, rq.Kind)
		}
		for j, lr := range rq.LimitedResources {
			if lr.Resource == "" {
				return nil, fmt.Errorf("%s: limitedResources[%d].resource: Required value", where, j)
			}
		}
		out.LimitedResources = append(out.LimitedResources, rq.LimitedResources...)
	}
	return out, nil
}
