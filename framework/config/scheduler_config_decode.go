package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/resource"
)

// DecodeKubeSchedulerConfiguration reads a kubescheduler.config.k8s.io/v1
// KubeSchedulerConfiguration from YAML or JSON the way kube-scheduler's
// --config does, and returns it defaulted and validated, with warnings
// naming the fields schedkit decodes but does not honour (Unsupported).
//
//   - Decoding is strict: an unknown or repeated field, in the
//     configuration or in a plugin's args, is a StrictDecodingError
//     naming every such field with its path, worded as kube-scheduler's
//     (`strict decoding error: unknown field "profiles[0].plugins.filter.enabeld"`).
//   - The args of the plugins NewPluginArgs knows are decoded into their
//     type (PluginConfig.Object) and defaulted; a kind other than the
//     plugin's is an error.
//   - Defaults and validation are v1's (SetDefaults, Validate);
//     validation errors are an ErrorList with upstream's paths and
//     messages ("profiles[0].pluginConfig[0].args.resources[0].weight:
//     Invalid value: 2: must be 1").
func DecodeKubeSchedulerConfiguration(data []byte) (*KubeSchedulerConfiguration, []string, error) {
	js, problems, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	var tm api.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return nil, nil, fmt.Errorf("couldn't decode as KubeSchedulerConfiguration: %w", err)
	}
	if tm.Kind == "" {
		return nil, nil, errors.New("couldn't decode as KubeSchedulerConfiguration: kind is missing")
	}
	if tm.APIVersion != SchemeGroupVersion || tm.Kind != KindKubeSchedulerConfiguration {
		return nil, nil, fmt.Errorf("no kind %q is registered for version %q: schedkit reads %s %s",
			tm.Kind, tm.APIVersion, SchemeGroupVersion, KindKubeSchedulerConfiguration)
	}
	cfg := &KubeSchedulerConfiguration{}
	more, err := decodeStrictJSON(js, cfg)
	if err != nil {
		return nil, nil, err
	}
	problems = append(problems, more...)
	for i := range cfg.Profiles {
		for j := range cfg.Profiles[i].PluginConfig {
			pc := &cfg.Profiles[i].PluginConfig[j]
			obj, err := decodePluginArgs(pc.Name, pc.Args)
			if err != nil {
				var s *StrictDecodingError
				if obj == nil || !errors.As(err, &s) {
					return nil, nil, fmt.Errorf("decoding .profiles[%d].pluginConfig[%d]: %w", i, j, err)
				}
				problems = append(problems, fmt.Sprintf("decoding .profiles[%d].pluginConfig[%d]: %v", i, j, err))
			}
			pc.Object = obj
		}
	}
	if len(problems) > 0 {
		return nil, nil, &StrictDecodingError{Problems: problems}
	}
	warnings := cfg.Unsupported()
	cfg.SetDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, warnings, err
	}
	return cfg, warnings, nil
}

// decodePluginArgs decodes the args of a plugin whose arguments type is
// known, strictly, and defaults them; it returns nil, nil for other
// plugins. With strict problems only, it returns the decoded args and a
// StrictDecodingError worded as upstream's nested one.
func decodePluginArgs(name string, raw json.RawMessage) (PluginArgs, error) {
	obj, ok := NewPluginArgs(name)
	if !ok {
		return nil, nil
	}
	if t := bytes.TrimSpace(raw); len(t) != 0 && string(t) != "null" {
		var tm api.TypeMeta
		if err := json.Unmarshal(raw, &tm); err != nil {
			return nil, fmt.Errorf("decoding args for plugin %s: %w", name, err)
		}
		if tm.Kind != "" && tm.Kind != name+"Args" {
			return nil, errWrongArgsKind(name, tm.Kind)
		}
		if err := decodeStrict(raw, obj); err != nil {
			var s *StrictDecodingError
			if !errors.As(err, &s) {
				return nil, fmt.Errorf("decoding args for plugin %s: %w", name, err)
			}
			obj.SetDefaults()
			return obj, &StrictDecodingError{Problems: []string{fmt.Sprintf("decoding args for plugin %s: %v", name, err)}}
		}
	}
	obj.SetDefaults()
	return obj, nil
}

// Unsupported returns a warning for every field of c that schedkit decodes
// and validates but does not honour, with its path: leader election,
// the client connection, profiling, backoff, extenders, the binding
// cycle's and the workload extension points, and the args of plugins
// whose arguments type schedkit does not have yet. Call it before
// SetDefaults, which fills some of these fields in.
func (c *KubeSchedulerConfiguration) Unsupported() []string {
	var w []string
	add := func(path, msg string) { w = append(w, path+": "+msg) }
	if c.LeaderElection != (LeaderElectionConfiguration{}) {
		add("leaderElection", "ignored: schedkit runs in process and elects no leader")
	}
	if c.ClientConnection != (ClientConnectionConfiguration{}) {
		add("clientConnection", "ignored: schedkit reads a snapshot, not an API server")
	}
	if c.EnableProfiling != nil || c.EnableContentionProfiling != nil {
		add("enableProfiling", "ignored: schedkit serves no debugging endpoints")
	}
	if c.PodInitialBackoffSeconds != nil || c.PodMaxBackoffSeconds != nil {
		add("podInitialBackoffSeconds", "validated and ignored: schedkit's queue has no backoff timers")
	}
	if len(c.Extenders) > 0 {
		add("extenders", fmt.Sprintf("ignored: schedkit calls no extenders (%d configured)", len(c.Extenders)))
	}
	if c.DelayCacheUntilActive {
		add("delayCacheUntilActive", "ignored: schedkit has no informer cache")
	}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		path := fmt.Sprintf("profiles[%d]", i)
		if p.Plugins != nil {
			for _, ps := range p.Plugins.PointSets() {
				switch ps.Point {
				case "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score", "multiPoint":
					continue
				}
				if len(ps.Set.Enabled) > 0 || len(ps.Set.Disabled) > 0 {
					add(path+".plugins."+ps.Point, "ignored: schedkit runs no "+ps.Point+" plugins")
				}
			}
		}
		for j := range p.PluginConfig {
			if hasUndecodedArgs(p.PluginConfig[j].Name) {
				add(fmt.Sprintf("%s.pluginConfig[%d].args", path, j),
					fmt.Sprintf("not checked: schedkit has no arguments type for plugin %s yet; its factory receives them undecoded", p.PluginConfig[j].Name))
			}
		}
	}
	return w
}

// SetDefaults fills in kube-scheduler's v1 defaults: parallelism 16, one
// profile when there is none, default-scheduler as the name of a single
// unnamed profile, percentageOfNodesToScore 0, backoff 1 s and 10 s,
// leader election and client connection defaults, profiling on, and the
// defaults of every decoded plugin args. The default plugins themselves
// are merged in when a profile is built (framework.ProfileConfig), and a
// plugin without a pluginConfig entry gets its default args from its
// factory.
func (c *KubeSchedulerConfiguration) SetDefaults() {
	if c.Parallelism == nil {
		c.Parallelism = ptr(DefaultParallelism)
	}
	if len(c.Profiles) == 0 {
		c.Profiles = append(c.Profiles, KubeSchedulerProfile{})
	}
	if len(c.Profiles) == 1 && c.Profiles[0].SchedulerName == nil {
		c.Profiles[0].SchedulerName = ptr(DefaultSchedulerName)
	}
	for i := range c.Profiles {
		for j := range c.Profiles[i].PluginConfig {
			if o := c.Profiles[i].PluginConfig[j].Object; o != nil {
				o.SetDefaults()
			}
		}
	}
	if c.PercentageOfNodesToScore == nil {
		c.PercentageOfNodesToScore = ptr[int32](0)
	}
	le := &c.LeaderElection
	if le.ResourceLock == "" {
		le.ResourceLock = "leases"
	}
	if le.ResourceNamespace == "" {
		le.ResourceNamespace = "kube-system"
	}
	if le.ResourceName == "" {
		le.ResourceName = "kube-scheduler"
	}
	if le.LeaderElect == nil {
		le.LeaderElect = ptr(true)
	}
	for _, d := range []struct {
		f *Duration
		v time.Duration
	}{{&le.LeaseDuration, 15 * time.Second}, {&le.RenewDeadline, 10 * time.Second}, {&le.RetryPeriod, 2 * time.Second}} {
		if d.f.Duration == 0 {
			d.f.Duration = d.v
		}
	}
	cc := &c.ClientConnection
	if cc.ContentType == "" {
		cc.ContentType = "application/vnd.kubernetes.protobuf"
	}
	if cc.QPS == 0 {
		cc.QPS = 50
	}
	if cc.Burst == 0 {
		cc.Burst = 100
	}
	if c.PodInitialBackoffSeconds == nil {
		c.PodInitialBackoffSeconds = ptr[int64](1)
	}
	if c.PodMaxBackoffSeconds == nil {
		c.PodMaxBackoffSeconds = ptr[int64](10)
	}
	if c.EnableProfiling == nil {
		c.EnableProfiling = ptr(true)
	}
	if *c.EnableProfiling && c.EnableContentionProfiling == nil {
		c.EnableContentionProfiling = ptr(true)
	}
}

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// removedInV1 are plugins kube-scheduler's v1 validation refuses by name.
func removedInV1(name string) bool {
	switch name {
	case "AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits":
		return true
	}
	return false
}

// Validate checks a defaulted c as kube-scheduler's
// ValidateKubeSchedulerConfiguration does, with its paths and messages:
// client connection and leader election, parallelism, profiles (names
// required and unique, percentages in [0, 100], plugins removed in v1,
// repeated pluginConfig entries, the args of every decoded plugin
// except NodeResourcesFit — upstream's table misnames that one, so its
// args fail when the profile is built instead), one queue sort for all
// profiles, backoff and extenders. The error, if any, is an ErrorList.
func (c *KubeSchedulerConfiguration) Validate() error {
	var errs ErrorList
	if c.ClientConnection.Burst < 0 {
		errs = append(errs, field.Invalid(field.NewPath("clientConnection", "burst"), c.ClientConnection.Burst, "must be non-negative"))
	}
	errs = append(errs, c.LeaderElection.validate(field.NewPath("leaderElection"))...)
	if deref(c.LeaderElection.LeaderElect) && c.LeaderElection.ResourceLock != "leases" {
		errs = append(errs, field.Invalid(field.NewPath("leaderElection", "resourceLock"), c.LeaderElection.ResourceLock, `resourceLock value must be "leases"`))
	}
	profilesPath := field.NewPath("profiles")
	if p := deref(c.Parallelism); p <= 0 {
		errs = append(errs, field.Invalid(field.NewPath("parallelism"), p, "should be an integer value greater than zero"))
	}
	if len(c.Profiles) == 0 {
		errs = append(errs, field.Required(profilesPath, ""))
	} else {
		seen := map[string]int{}
		for i := range c.Profiles {
			prof := &c.Profiles[i]
			path := profilesPath.Index(i)
			errs = append(errs, prof.validate(path)...)
			name := deref(prof.SchedulerName)
			if idx, ok := seen[name]; ok {
				errs = append(errs, field.Duplicate(path.Child("schedulerName"), profilesPath.Index(idx).Child("schedulerName")))
			}
			seen[name] = i
		}
		errs = append(errs, validateCommonQueueSort(profilesPath, c.Profiles)...)
	}
	if e := validatePercentage(field.NewPath("percentageOfNodesToScore"), c.PercentageOfNodesToScore); e != nil {
		errs = append(errs, e)
	}
	initial, maxBackoff := deref(c.PodInitialBackoffSeconds), deref(c.PodMaxBackoffSeconds)
	if initial <= 0 {
		errs = append(errs, field.Invalid(field.NewPath("podInitialBackoffSeconds"), initial, "must be greater than 0"))
	}
	if maxBackoff < initial {
		errs = append(errs, field.Invalid(field.NewPath("podMaxBackoffSeconds"), maxBackoff, "must be greater than or equal to PodInitialBackoffSeconds"))
	}
	errs = append(errs, validateExtenders(field.NewPath("extenders"), c.Extenders)...)
	return errs.ToAggregate()
}

func (le *LeaderElectionConfiguration) validate(p *field.Path) ErrorList {
	if !deref(le.LeaderElect) {
		return nil
	}
	var errs ErrorList
	if le.LeaseDuration.Duration <= 0 {
		errs = append(errs, field.Invalid(p.Child("leaseDuration"), le.LeaseDuration.String(), "must be greater than zero"))
	}
	if le.RenewDeadline.Duration <= 0 {
		errs = append(errs, field.Invalid(p.Child("renewDeadline"), le.RenewDeadline.String(), "must be greater than zero"))
	}
	if le.RetryPeriod.Duration <= 0 {
		errs = append(errs, field.Invalid(p.Child("retryPeriod"), le.RetryPeriod.String(), "must be greater than zero"))
	}
	if le.LeaseDuration.Duration <= le.RenewDeadline.Duration {
		errs = append(errs, field.Invalid(p.Child("leaseDuration"), le.RenewDeadline.String(), "must be greater than `RenewDeadline`"))
	}
	if le.ResourceLock == "" {
		errs = append(errs, field.Required(p.Child("resourceLock"), ""))
	}
	if le.ResourceNamespace == "" {
		errs = append(errs, field.Required(p.Child("resourceNamespace"), ""))
	}
	if le.ResourceName == "" {
		errs = append(errs, field.Required(p.Child("resourceName"), ""))
	}
	return errs
}

func validatePercentage(p *field.Path, v *int32) *FieldError {
	if v != nil && (*v < 0 || *v > 100) {
		return field.Invalid(p, *v, "not in valid range [0-100]")
	}
	return nil
}

func (prof *KubeSchedulerProfile) validate(path *field.Path) ErrorList {
	var errs ErrorList
	if deref(prof.SchedulerName) == "" {
		errs = append(errs, field.Required(path.Child("schedulerName"), ""))
	}
	if e := validatePercentage(path.Child("percentageOfNodesToScore"), prof.PercentageOfNodesToScore); e != nil {
		errs = append(errs, e)
	}
	const invalidMsg = `was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")`
	if prof.Plugins != nil {
		for _, ps := range prof.Plugins.PointSets() {
			switch ps.Point {
			case "multiPoint", "placementGenerate", "placementScore":
				continue // upstream does not look at these
			}
			for i, pl := range ps.Set.Enabled {
				if removedInV1(pl.Name) {
					errs = append(errs, field.Invalid(path.Child("plugins", ps.Point, "enabled").Index(i), pl.Name, invalidMsg))
				}
			}
		}
	}
	seen := map[string]bool{}
	for i := range prof.PluginConfig {
		pc := &prof.PluginConfig[i]
		p := path.Child("pluginConfig").Index(i)
		if seen[pc.Name] {
			errs = append(errs, field.Duplicate(p, pc.Name))
		}
		seen[pc.Name] = true
		switch {
		case removedInV1(pc.Name):
			errs = append(errs, field.Invalid(p, pc.Name, invalidMsg))
		case pc.Object != nil && pc.Name != NodeResourcesFitName:
			errs = append(errs, Prefix(pc.Object.Validate(), p.Child("args"))...)
		}
	}
	return errs
}

// Prefix returns the field errors of err (an ErrorList, or a FieldError)
// with p prefixed to their paths, as validating at p instead of at the
// root would have named them; any other error becomes an internal error
// at p.
func Prefix(err error, p *field.Path) ErrorList {
	if err == nil {
		return nil
	}
	var l ErrorList
	if !errors.As(err, &l) {
		var fe *FieldError
		if !errors.As(err, &fe) {
			return ErrorList{field.InternalError(p, err)}
		}
		l = ErrorList{fe}
	}
	out := make(ErrorList, len(l))
	for i, e := range l {
		c := *e
		switch {
		case c.Field == "":
			c.Field = p.String()
		case strings.HasPrefix(c.Field, "["):
			c.Field = p.String() + c.Field
		default:
			c.Field = p.String() + "." + c.Field
		}
		out[i] = &c
	}
	return out
}

// internalPlugin and internalPluginSet print as kube-scheduler's internal
// config types do in validation messages (JSON without tags).
type internalPlugin struct {
	Name   string
	Weight int32
}

type internalPluginSet struct {
	Enabled  []internalPlugin
	Disabled []internalPlugin
}

func internalSet(ps PluginSet) internalPluginSet {
	conv := func(in []Plugin) []internalPlugin {
		if len(in) == 0 {
			return nil
		}
		out := make([]internalPlugin, len(in))
		for i, p := range in {
			out[i] = internalPlugin{Name: p.Name, Weight: deref(p.Weight)}
		}
		return out
	}
	return internalPluginSet{Enabled: conv(ps.Enabled), Disabled: conv(ps.Disabled)}
}

func equalSets(a, b internalPluginSet) bool {
	eq := func(x, y []internalPlugin) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	return eq(a.Enabled, b.Enabled) && eq(a.Disabled, b.Disabled)
}

func queueSortOf(p *KubeSchedulerProfile) PluginSet {
	if p.Plugins == nil {
		return PluginSet{}
	}
	return p.Plugins.QueueSort
}

func validateCommonQueueSort(path *field.Path, profiles []KubeSchedulerProfile) ErrorList {
	var errs ErrorList
	canon := internalSet(queueSortOf(&profiles[0]))
	if n := len(canon.Enabled); n > 1 {
		errs = append(errs, field.Invalid(path.Index(0).Child("plugins", "queueSort", "Enabled"), n, "only one queue sort plugin can be enabled"))
	}
	for i := 1; i < len(profiles); i++ {
		curr := internalSet(queueSortOf(&profiles[i]))
		if !equalSets(canon, curr) {
			errs = append(errs, field.Invalid(path.Index(i).Child("plugins", "queueSort"), curr, "must be the same for all profiles"))
		}
	}
	return errs
}

func validateExtenders(p *field.Path, extenders []Extender) ErrorList {
	var errs ErrorList
	binders := 0
	managed := map[string]bool{}
	for i, e := range extenders {
		ep := p.Index(i)
		if e.PrioritizeVerb != "" && e.Weight <= 0 {
			errs = append(errs, field.Invalid(ep.Child("weight"), e.Weight, "must have a positive weight applied to it"))
		}
		if e.BindVerb != "" {
			binders++
		}
		for j, r := range e.ManagedResources {
			np := ep.Child("managedResources").Index(j).Child("name")
			if msgs := affinity.ValidateLabelKey(r.Name); len(msgs) > 0 {
				for _, m := range msgs {
					errs = append(errs, field.Invalid(np, r.Name, m))
				}
			} else if !resource.IsExtendedResourceName(api.ResourceName(r.Name)) {
				errs = append(errs, field.Invalid(np, r.Name, "is an invalid extended resource name"))
			}
			if managed[r.Name] {
				errs = append(errs, field.Invalid(np, r.Name, "duplicate extender managed resource name"))
			}
			managed[r.Name] = true
		}
	}
	if binders > 1 {
		errs = append(errs, field.Invalid(p, fmt.Sprintf("found %d extenders implementing bind", binders), "only one extender can implement bind"))
	}
	return errs
}
