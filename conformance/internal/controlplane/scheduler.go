package controlplane

import (
	"context"
	"fmt"

	"k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

// DecodeSchedulerConfig decodes a KubeSchedulerConfiguration file as
// kube-scheduler's --config does: defaulted by its version's defaults,
// then validated.
func DecodeSchedulerConfig(data []byte) (*kconfig.KubeSchedulerConfiguration, error) {
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg, ok := obj.(*kconfig.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("not a KubeSchedulerConfiguration: %v", gvk)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// startScheduler starts kube-scheduler with cfg's profiles (the default
// configuration when nil), each with the cycle recorder added (see
// Cycles), and waits for its informers and handlers.
func (c *ControlPlane) startScheduler(runCtx, startCtx context.Context, cfg *kconfig.KubeSchedulerConfiguration) error {
	if cfg == nil {
		var err error
		if cfg, err = latest.Default(); err != nil {
			return err
		}
	}
	rc := restclient.CopyConfig(c.cfg)
	rc.UserAgent = "kube-scheduler"
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	factory := scheduler.NewInformerFactory(cs, 0, nil)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: cs.EventsV1()})
	sched, err := scheduler.New(runCtx, cs, factory, nil, profile.NewRecorderFactory(broadcaster),
		scheduler.WithKubeConfig(rc),
		scheduler.WithProfiles(withRecorder(cfg.Profiles)...),
		scheduler.WithFrameworkOutOfTreeRegistry(c.cycles.registry()),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithParallelism(cfg.Parallelism),
	)
	if err != nil {
		return err
	}
	if err := broadcaster.StartRecordingToSinkWithContext(runCtx); err != nil {
		return err
	}
	c.stop = append(c.stop, func() {
		broadcaster.Shutdown()
		factory.Shutdown()
	})
	if _, err := factory.Core().V1().Pods().Informer().AddEventHandler(c.cycles.handlers()); err != nil {
		return err
	}
	factory.Start(runCtx.Done())
	for typ, ok := range factory.WaitForCacheSync(startCtx.Done()) {
		if !ok {
			return fmt.Errorf("informer of %v did not sync", typ)
		}
	}
	if err := sched.WaitForHandlersSync(startCtx); err != nil {
		return err
	}
	c.goRun(func() { sched.Run(runCtx) })
	return nil
}
