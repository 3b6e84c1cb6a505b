package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/schedconfig"
	"github.com/schedkit/schedkit/scheduler"
)

// load reads the manifests of -f and says on stderr what deserves a word:
// no nodes, ignored kinds, warnings (unknown fields, missing
// PriorityClasses), rejected pods, pods bound to nodes the manifests lack.
func (e *env) load(o *options) (*manifest.Cluster, error) {
	if len(o.files) == 0 {
		return nil, &usageError{msg: "no manifests given (-f PATH)"}
	}
	for _, f := range o.files {
		if strings.Contains(f, "://") {
			return nil, &inputError{fmt.Errorf("-f %s: not supported: this command reads files", f)}
		}
	}
	if o.admissionConfig != "" && o.admission == nil {
		ac, err := manifest.ReadAdmissionConfig(o.admissionConfig)
		if err != nil {
			return nil, &inputError{fmt.Errorf("--admission-config: %w", err)}
		}
		o.admission = ac
	}
	e.beforeLoad(o.files)
	opts := loadOptions(e, o)
	prog := newReadProgress(e)
	opts.Progress = prog.tick
	c, err := manifest.Load(context.Background(), opts, o.files...)
	prog.done()
	e.afterLoad()
	if err != nil {
		return nil, &inputError{err}
	}
	if c.Report.Objects == 0 && len(c.Report.Skipped) == 0 {
		return nil, &inputError{fmt.Errorf("no objects passed to %s", o.command)}
	}
	e.notices(o, c)
	if err := refuse(c); err != nil {
		return nil, err
	}
	return c, nil
}

// coreKinds are the kinds of Kubernetes v1.37's core group (apiVersion
// v1); any other kind read as core is a typo the API server refuses.
var coreKinds = []string{"Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange", "List",
	"Namespace", "Node", "PersistentVolume", "PersistentVolumeClaim", "Pod", "PodTemplate",
	"ReplicationController", "ResourceQuota", "Secret", "Service", "ServiceAccount"}

// refuse fails the run, as kubectl apply would, on pods the API server
// rejects and on core kinds that do not exist: scheduling the rest would
// answer a question about another cluster.
func refuse(c *manifest.Cluster) error {
	var errs []error
	for _, r := range c.Report.Rejected {
		errs = append(errs, errors.New(r.String()))
	}
	kinds := make([]string, 0, len(c.Report.Skipped))
	for k := range c.Report.Skipped {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		if !strings.Contains(k, ".") && !slices.Contains(coreKinds, k) {
			errs = append(errs, fmt.Errorf("no matches for kind %q in version \"v1\" (%d object(s)): not a kind of Kubernetes %s", k, c.Report.Skipped[k], KubernetesVersion))
		}
	}
	if len(errs) > 0 {
		return &inputError{errors.Join(errs...)}
	}
	return nil
}

// nameSeed seeds the random suffixes of the pods workloads add and of
// generateName. It is fixed: --seed changes tie-breaking only, so the
// same input always names its pods the same.
const nameSeed = 1

// loadOptions are the manifest options of the flags: workloads expanded
// unless --no-workloads, their pods named with nameSeed, time judged at
// --now, fields validated as --validate says, admission configured by
// --admission-config (read by load), stored pods given their priority
// in place and equal resource lists shared (the command needs no pod as
// read and changes no list it read).
func loadOptions(e *env, o *options) manifest.Options {
	opts := manifest.Options{Recursive: o.recursive, Stdin: e.stdin, ExpandWorkloads: !o.noExpand, Seed: nameSeed, Now: o.now.t, Validate: o.validate.v, Admission: o.admission, PriorityInPlace: true, ShareResourceLists: true}
	// A bad --feature-gates is reported by schedulerOptions; here it
	// leaves the defaults.
	if g, err := featuregates.Parse(o.featureGates); err == nil && o.featureGates != "" {
		opts.DRAFeatures.FractionalCapacityRange = g.Enabled(featuregates.DRAFractionalCapacityRange)
	}
	return opts
}

// warnf prints a warning, something that may make an answer wrong, and
// remembers it for --strict.
func (e *env) warnf(o *options, format string, args ...any) {
	o.warned = true
	fmt.Fprintf(e.stderr, "warning: "+format+"\n", args...)
}

// notef prints a note: information about the run.
func (e *env) notef(format string, args ...any) {
	fmt.Fprintf(e.stderr, "note: "+format+"\n", args...)
}

// notices says what deserves a word about the input: notes for
// information, warnings for what may make an answer wrong.
func (e *env) notices(o *options, c *manifest.Cluster) {
	if len(c.Objects.Nodes) == 0 {
		e.warnf(o, "the manifests hold no Node: every pending pod is unschedulable")
	}
	if kinds := c.Report.SkippedKinds(); len(kinds) > 0 {
		e.notef("ignored kinds (not read by the scheduler): %s", strings.Join(kinds, ", "))
	}
	for _, wr := range c.Report.Warnings {
		e.warnf(o, "%s", wr)
	}
	// The resourceclaim controller's cleanup of finished pods' claims.
	for _, r := range c.Report.ReleasedClaims {
		e.notef("%s", r)
	}
	nodes := make(map[string]bool, len(c.Objects.Nodes))
	for _, n := range c.Objects.Nodes {
		nodes[n.Name] = true
	}
	unknown := map[string]int{}
	var order []string
	for _, p := range c.Objects.Pods {
		if n := p.Spec.NodeName; n != "" && !nodes[n] && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			if unknown[n] == 0 {
				order = append(order, n)
			}
			unknown[n]++
		}
	}
	for _, n := range order {
		e.warnf(o, "%d pod(s) bound to node %q, which the manifests lack: not counted anywhere", unknown[n], n)
	}
}

// schedulerOptions are the options of --config (one file), or the default
// profile with every node scored.
func (e *env) schedulerOptions(o *options, config string) ([]scheduler.Option, error) {
	var opts []scheduler.Option
	if o.featureGates != "" {
		g, err := featuregates.Parse(o.featureGates)
		if err != nil {
			return nil, &usageError{msg: "--feature-gates: " + err.Error()}
		}
		opts = append(opts, scheduler.WithFeatureGates(g))
	}
	switch o.ties {
	case "upstream":
	case "random":
		opts = append(opts, scheduler.WithTieBreak(scheduler.TieBreakRandom), scheduler.WithSeed(o.seed))
	default:
		return nil, &usageError{msg: fmt.Sprintf("--ties %q: want upstream or random", o.ties)}
	}
	if config == "" {
		// No sampling: explain every node, as an SRE expects.
		return append(opts, scheduler.WithPercentageOfNodesToScore(100)), nil
	}
	cfg, err := schedconfig.ReadFile(config)
	if err != nil {
		return nil, &inputError{err}
	}
	for _, w := range cfg.Warnings {
		e.warnf(o, "%s: %s", config, w)
	}
	return append(opts, cfg.Options()...), nil
}

// configOptions is oneConfig and the scheduler options for it.
func (e *env) configOptions(o *options) (string, []scheduler.Option, error) {
	config, err := oneConfig(o)
	if err != nil {
		return "", nil, err
	}
	opts, err := e.schedulerOptions(o, config)
	if err != nil {
		return "", nil, err
	}
	return config, opts, nil
}

// knownNodes is a usage error naming the first of names that is not a
// node of c.
func knownNodes(c *manifest.Cluster, names []string) error {
	for _, n := range names {
		if _, ok := c.Snapshot.Get(n); !ok {
			return &usageError{msg: fmt.Sprintf("node %q is not among the manifests' nodes", n)}
		}
	}
	return nil
}

// oneConfig is the single --config of commands that take one.
func oneConfig(o *options) (string, error) {
	switch len(o.configs) {
	case 0:
		return "", nil
	case 1:
		return o.configs[0], nil
	}
	return "", &usageError{msg: "--config given more than once (compare takes two)"}
}

// newScheduler builds a scheduler over the cluster's snapshot.
func (e *env) newScheduler(c *manifest.Cluster, o *options, config string) (*scheduler.Scheduler, error) {
	opts, err := e.schedulerOptions(o, config)
	if err != nil {
		return nil, err
	}
	return newSched(c.Snapshot, config, append(opts, unmodelledFields(c)))
}

// newSched is scheduler.New, with the configuration file named in its
// error.
func newSched(snap *cluster.Snapshot, config string, opts []scheduler.Option) (*scheduler.Scheduler, error) {
	s, err := scheduler.New(snap, opts...)
	if err != nil {
		if config != "" {
			err = fmt.Errorf("--config %s: %w", config, err)
		}
		return nil, &inputError{err}
	}
	return s, nil
}

// podName is "namespace/name".
func podName(p *api.Pod) string { return p.Namespace + "/" + p.Name }

func priority(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}
