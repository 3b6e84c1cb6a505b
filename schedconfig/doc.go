// Package schedconfig turns kube-scheduler configuration files into
// scheduler options: a kubescheduler.config.k8s.io/v1
// KubeSchedulerConfiguration, or a legacy Policy file (kind: Policy,
// predicates and priorities by name), read from YAML or JSON.
//
// Start here:
//
//	cfg, err := schedconfig.ReadFile("kube-scheduler.yaml")
//	if err != nil { … }
//	for _, w := range cfg.Warnings { log.Print(w) } // fields schedkit does not honour
//	s, err := scheduler.New(snapshot, cfg.Options()...)
//
// A KubeSchedulerConfiguration is decoded strictly, defaulted and
// validated as kube-scheduler does (framework/config.DecodeKubeSchedulerConfiguration);
// each profile becomes a framework.ProfileConfig whose multiPoint and
// per-extension-point plugin sets the framework expands as
// kube-scheduler's does, with the plugins' decoded args.
//
// A Policy becomes one profile by kube-scheduler's last mapping of
// predicates and priorities to plugins (v1.22's legacy registry); see
// FromPolicy.
package schedconfig
