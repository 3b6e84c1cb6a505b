package config

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
)

// The group and version, and the kind, of a scheduler configuration file.
const (
	// SchemeGroupVersion is the only apiVersion decoded:
	// "kubescheduler.config.k8s.io/v1".
	SchemeGroupVersion = "kubescheduler.config.k8s.io/v1"
	// GroupName is the configuration's API group.
	GroupName = "kubescheduler.config.k8s.io"
	// KindKubeSchedulerConfiguration is the kind of a scheduler
	// configuration file.
	KindKubeSchedulerConfiguration = "KubeSchedulerConfiguration"
	// DefaultParallelism is kube-scheduler's default parallelism.
	DefaultParallelism int32 = 16
	// DefaultSchedulerName is "default-scheduler": the scheduler name of
	// a profile that names none, and the spec.schedulerName the API server
	// gives a pod that names none. It is the module's one constant for it.
	DefaultSchedulerName = "default-scheduler"
)

// KubeSchedulerConfiguration is kube-scheduler's configuration file,
// kubescheduler.config.k8s.io/v1, with the JSON names of
// k8s.io/kube-scheduler/config/v1. Decode it with
// DecodeKubeSchedulerConfiguration, which also defaults and validates it.
//
// schedkit honours parallelism, percentageOfNodesToScore and the
// profiles; the other fields are decoded (so that a real file is
// accepted, and unknown fields are still errors) and reported by
// Unsupported.
type KubeSchedulerConfiguration struct {
	api.TypeMeta `json:",inline"`
	// Parallelism is the number of goroutines that filter and score;
	// default 16.
	Parallelism *int32 `json:"parallelism,omitempty"`
	// LeaderElection is decoded and not used.
	LeaderElection LeaderElectionConfiguration `json:"leaderElection"`
	// ClientConnection is decoded and not used.
	ClientConnection ClientConnectionConfiguration `json:"clientConnection"`
	// DebuggingConfiguration is decoded and not used.
	DebuggingConfiguration `json:",inline"`
	// PercentageOfNodesToScore is the share of nodes whose feasibility a
	// cycle looks for; 0 (the default) is the adaptive sampling.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
	// PodInitialBackoffSeconds is decoded, defaulted to 1, validated and
	// not used.
	PodInitialBackoffSeconds *int64 `json:"podInitialBackoffSeconds,omitempty"`
	// PodMaxBackoffSeconds is decoded, defaulted to 10, validated and not
	// used.
	PodMaxBackoffSeconds *int64 `json:"podMaxBackoffSeconds,omitempty"`
	// Profiles are the scheduling profiles; default one, named
	// default-scheduler.
	Profiles []KubeSchedulerProfile `json:"profiles,omitempty"`
	// Extenders are decoded and validated; schedkit calls none.
	Extenders []Extender `json:"extenders,omitempty"`
	// DelayCacheUntilActive is decoded and not used.
	DelayCacheUntilActive bool `json:"delayCacheUntilActive,omitempty"`
}

// LeaderElectionConfiguration is component-base's leader election
// configuration.
type LeaderElectionConfiguration struct {
	// LeaderElect enables leader election.
	LeaderElect *bool `json:"leaderElect,omitempty"`
	// LeaseDuration is the non-leaders' wait before acquiring the lease.
	LeaseDuration Duration `json:"leaseDuration,omitzero"`
	// RenewDeadline is the leader's renewal deadline.
	RenewDeadline Duration `json:"renewDeadline,omitzero"`
	// RetryPeriod is the wait between attempts.
	RetryPeriod Duration `json:"retryPeriod,omitzero"`
	// ResourceLock is the kind of lock object.
	ResourceLock string `json:"resourceLock,omitempty"`
	// ResourceName is the lock object's name.
	ResourceName string `json:"resourceName,omitempty"`
	// ResourceNamespace is the lock object's namespace.
	ResourceNamespace string `json:"resourceNamespace,omitempty"`
}

// ClientConnectionConfiguration is component-base's API client
// configuration.
type ClientConnectionConfiguration struct {
	// Kubeconfig is a kubeconfig file path.
	Kubeconfig string `json:"kubeconfig,omitempty"`
	// AcceptContentTypes is the client's Accept header.
	AcceptContentTypes string `json:"acceptContentTypes,omitempty"`
	// ContentType is the content type of requests.
	ContentType string `json:"contentType,omitempty"`
	// QPS is the client's rate limit.
	QPS float32 `json:"qps,omitempty"`
	// Burst is the client's burst.
	Burst int32 `json:"burst,omitempty"`
}

// DebuggingConfiguration is component-base's profiling switches.
type DebuggingConfiguration struct {
	// EnableProfiling enables the pprof handlers.
	EnableProfiling *bool `json:"enableProfiling,omitempty"`
	// EnableContentionProfiling enables lock contention profiling.
	EnableContentionProfiling *bool `json:"enableContentionProfiling,omitempty"`
}

// Duration is metav1.Duration: a time.Duration written as Go prints
// durations ("15s").
type Duration struct {
	time.Duration
}

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// KubeSchedulerProfile is one scheduling profile.
type KubeSchedulerProfile struct {
	// SchedulerName selects the profile by pods' spec.schedulerName.
	SchedulerName *string `json:"schedulerName,omitempty"`
	// PercentageOfNodesToScore overrides the global setting when set.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
	// Plugins enable and disable plugins, per extension point and at
	// every extension point they implement (multiPoint), on top of the
	// default plugins.
	Plugins *Plugins `json:"plugins,omitempty"`
	// PluginConfig holds the plugins' arguments.
	PluginConfig []PluginConfig `json:"pluginConfig,omitempty"`
}

// Plugins are a profile's plugins per extension point. schedkit runs
// preEnqueue, queueSort, preFilter, filter, postFilter, preScore, score
// and multiPoint; the binding cycle's points (reserve, permit, preBind,
// bind, postBind) and the workload points are decoded and reported by
// Unsupported.
type Plugins struct {
	PreEnqueue         PluginSet `json:"preEnqueue,omitzero"`         // PreEnqueue plugins
	QueueSort          PluginSet `json:"queueSort,omitzero"`          // the QueueSort plugin
	PreFilter          PluginSet `json:"preFilter,omitzero"`          // PreFilter plugins
	Filter             PluginSet `json:"filter,omitzero"`             // Filter plugins
	PostFilter         PluginSet `json:"postFilter,omitzero"`         // PostFilter plugins
	PreScore           PluginSet `json:"preScore,omitzero"`           // PreScore plugins
	Score              PluginSet `json:"score,omitzero"`              // Score plugins, with weights
	Reserve            PluginSet `json:"reserve,omitzero"`            // not run by schedkit
	Permit             PluginSet `json:"permit,omitzero"`             // not run by schedkit
	PreBind            PluginSet `json:"preBind,omitzero"`            // not run by schedkit
	Bind               PluginSet `json:"bind,omitzero"`               // not run by schedkit
	PostBind           PluginSet `json:"postBind,omitzero"`           // not run by schedkit
	MultiPoint         PluginSet `json:"multiPoint,omitzero"`         // plugins at every point they implement
	PlacementGenerate  PluginSet `json:"placementGenerate,omitzero"`  // not run by schedkit
	PlacementScore     PluginSet `json:"placementScore,omitzero"`     // not run by schedkit
	PodGroupPostFilter PluginSet `json:"podGroupPostFilter,omitzero"` // not run by schedkit
}

// PluginSet enables plugins at an extension point (in order) and
// disables default ones ("*" disables them all).
type PluginSet struct {
	// Enabled plugins, in order.
	Enabled []Plugin `json:"enabled,omitempty"`
	// Disabled plugins.
	Disabled []Plugin `json:"disabled,omitempty"`
}

// Plugin names a plugin and, for score plugins, its weight.
type Plugin struct {
	// Name of the plugin.
	Name string `json:"name"`
	// Weight of a score plugin; unset or 0 means 1.
	Weight *int32 `json:"weight,omitempty"`
}

// PluginConfig is the arguments of one plugin.
type PluginConfig struct {
	// Name of the plugin.
	Name string `json:"name"`
	// Args as written in the file (JSON).
	Args json.RawMessage `json:"args,omitempty"`
	// Object holds the decoded, defaulted arguments of a plugin whose
	// arguments type this package knows (NewPluginArgs); nil for other
	// plugins, whose factories receive Args.
	Object PluginArgs `json:"-"`
}

// Extender is a scheduler extender's configuration; schedkit validates it
// as kube-scheduler does and calls no extender.
type Extender struct {
	URLPrefix        string                    `json:"urlPrefix"`                  // the extender's URL prefix
	FilterVerb       string                    `json:"filterVerb,omitempty"`       // the filter call
	PreemptVerb      string                    `json:"preemptVerb,omitempty"`      // the preempt call
	PrioritizeVerb   string                    `json:"prioritizeVerb,omitempty"`   // the prioritize call
	Weight           int64                     `json:"weight,omitempty"`           // the prioritize weight
	BindVerb         string                    `json:"bindVerb,omitempty"`         // the bind call
	EnableHTTPS      bool                      `json:"enableHTTPS,omitempty"`      // use https
	TLSConfig        *ExtenderTLSConfig        `json:"tlsConfig,omitempty"`        // TLS settings
	HTTPTimeout      Duration                  `json:"httpTimeout,omitzero"`       // call timeout
	NodeCacheCapable bool                      `json:"nodeCacheCapable,omitempty"` // the extender caches nodes
	ManagedResources []ExtenderManagedResource `json:"managedResources,omitempty"` // extended resources it manages
	Ignorable        bool                      `json:"ignorable,omitempty"`        // failures are ignored
}

// ExtenderManagedResource is an extended resource an extender manages.
type ExtenderManagedResource struct {
	// Name of the extended resource.
	Name string `json:"name"`
	// IgnoredByScheduler makes the scheduler skip the resource in its fit
	// check.
	IgnoredByScheduler bool `json:"ignoredByScheduler,omitempty"`
}

// ExtenderTLSConfig is an extender's TLS configuration.
type ExtenderTLSConfig struct {
	Insecure   bool   `json:"insecure,omitempty"`   // skip verification
	ServerName string `json:"serverName,omitempty"` // SNI name
	CertFile   string `json:"certFile,omitempty"`   // client certificate file
	KeyFile    string `json:"keyFile,omitempty"`    // client key file
	CAFile     string `json:"caFile,omitempty"`     // CA file
	CertData   []byte `json:"certData,omitempty"`   // client certificate
	KeyData    []byte `json:"keyData,omitempty"`    // client key
	CAData     []byte `json:"caData,omitempty"`     // CA certificates
}

// PointSets returns the profile's plugin sets by extension point name
// (as the JSON names them: "preEnqueue", "queueSort", …, "multiPoint"),
// in the order of the Plugins struct.
func (p *Plugins) PointSets() []NamedPluginSet {
	return []NamedPluginSet{
		{"preEnqueue", &p.PreEnqueue}, {"queueSort", &p.QueueSort}, {"preFilter", &p.PreFilter},
		{"filter", &p.Filter}, {"postFilter", &p.PostFilter}, {"preScore", &p.PreScore},
		{"score", &p.Score}, {"reserve", &p.Reserve}, {"permit", &p.Permit},
		{"preBind", &p.PreBind}, {"bind", &p.Bind}, {"postBind", &p.PostBind},
		{"multiPoint", &p.MultiPoint}, {"placementGenerate", &p.PlacementGenerate},
		{"placementScore", &p.PlacementScore}, {"podGroupPostFilter", &p.PodGroupPostFilter},
	}
}

// NamedPluginSet is one extension point's plugin set and its JSON name.
type NamedPluginSet struct {
	// Point is the JSON name of the extension point.
	Point string
	// Set is the plugin set, shared with the Plugins it came from.
	Set *PluginSet
}

// errWrongArgsKind is upstream's error for args whose kind is not the
// plugin's.
func errWrongArgsKind(plugin, kind string) error {
	return fmt.Errorf("args for plugin %s were not of type %sArgs.%s, got %s.%s", plugin, plugin, GroupName, kind, GroupName)
}
